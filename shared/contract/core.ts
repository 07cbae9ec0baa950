/** The owner's own REST contract: health, info, status, badges, connecting Claude. */
import { z } from 'zod';
import { route } from './route';

export const MCP_PATH = '/mcp';

export const HealthDto = z.object({ ok: z.boolean(), version: z.string(), vault: z.string(), uptime_s: z.number() });
export type HealthDto = z.infer<typeof HealthDto>;

export const IndexProgressDto = z.object({ state: z.enum(['starting', 'indexing', 'ready', 'failed']), done: z.number(), total: z.number() });
export type IndexProgressDto = z.infer<typeof IndexProgressDto>;

/**
 * The folder profiles filing compares items against, built in the background once the index is
 * ready: warm (built for the index as it is), building, stale (for an older index; a call checks
 * what changed) or cold; how many full builds background slices and requests finished; the last one's time.
 */
export const ProfilesStatusDto = z.object({ state: z.enum(['cold', 'building', 'warm', 'stale']), background: z.number(), request: z.number(), ms: z.number().optional() });
export type ProfilesStatusDto = z.infer<typeof ProfilesStatusDto>;

/** GET /api/status: what the owner is busy with (the vault's background index, the filing profiles). */
export const StatusDto = z.object({ index: IndexProgressDto.extend({ ms: z.number().optional(), error: z.string().optional() }), profiles: ProfilesStatusDto.optional() });
export type StatusDto = z.infer<typeof StatusDto>;

export const InfoDto = z.object({
  version: z.string(),
  vault: z.string(),
  data_dir: z.string(),
  owner_pid: z.number(),
  port: z.number(),
  counts: z.record(z.string(), z.number()),
  /** The vault's background index (state, done / total). */
  index: IndexProgressDto.optional(),
});
export type InfoDto = z.infer<typeof InfoDto>;

export const ConnectSnippetDto = z.object({
  /** Path of Claude Desktop's config file on this platform. */
  claude_desktop_config_path: z.string(),
  /** The `mcpServers.mailroom` entry to merge. */
  entry: z.object({ command: z.string(), args: z.array(z.string()), env: z.record(z.string(), z.string()) }),
  /** The whole JSON snippet, ready to paste. */
  snippet: z.string(),
  /** The `.mcp.json` content for Claude Code. */
  claude_code_snippet: z.string(),
});
export type ConnectSnippetDto = z.infer<typeof ConnectSnippetDto>;

export const ConnectResult = z.object({ file: z.string(), changed: z.boolean(), backup: z.string().nullable() });
export type ConnectResult = z.infer<typeof ConnectResult>;

export const coreRoutes = {
  health: route('GET', '/api/health', { reply: HealthDto }),
  info: route('GET', '/api/info', { reply: InfoDto }),
  status: route('GET', '/api/status', { reply: StatusDto }),
  badges: route('GET', '/api/badges', { reply: z.record(z.string(), z.number()) }),
  connect: route('GET', '/api/connect', { reply: ConnectSnippetDto }),
  connectClaudeDesktop: route('POST', '/api/connect/claude-desktop', { reply: ConnectResult }),
} as const;

/** REST routes, hub names and DTOs shared by the owner and the renderer. No Node or DOM imports. */

export const HUB_PATH = '/hubs/mailbox';
export const MCP_PATH = '/mcp';

/** Hub events every domain may broadcast. Domains add their own names beside these. */
export const HubEvent = {
  /** (reason: string, count: number) — the inbox folder changed or new analyses are ready. */
  inboxChanged: 'InboxChanged',
  /** ({ title, body }) — a notification the renderer shows as a toast / web notification. */
  notification: 'Notification',
  /** (IndexProgressDto) — the vault's background index advanced (at most ~5 a second) or finished. */
  indexProgress: 'IndexProgress',
} as const;

export interface IndexProgressDto {
  state: 'starting' | 'indexing' | 'ready' | 'failed';
  done: number;
  total: number;
}

/** GET /api/status: what the owner is busy with (the vault's background index). */
export interface StatusDto {
  index: IndexProgressDto & { ms?: number; error?: string };
}

export const HubMethod = {
  /** () => { now: ISO string } */
  ping: 'Ping',
} as const;

export interface HealthDto {
  ok: boolean;
  version: string;
  vault: string;
  uptime_s: number;
}

export interface InfoDto {
  version: string;
  vault: string;
  data_dir: string;
  owner_pid: number;
  port: number;
  counts: Record<string, number>;
  /** The vault's background index (state, done / total). */
  index?: IndexProgressDto;
}

export interface ConnectSnippetDto {
  /** Path of Claude Desktop's config file on this platform. */
  claude_desktop_config_path: string;
  /** The `mcpServers.mailroom` entry to merge. */
  entry: { command: string; args: string[]; env: Record<string, string> };
  /** The whole JSON snippet, ready to paste. */
  snippet: string;
  /** The `.mcp.json` content for Claude Code. */
  claude_code_snippet: string;
}

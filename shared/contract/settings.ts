/**
 * Settings' REST contract (`/api/settings...`): what is configured (config.json in the data dir)
 * and changing it — the vault folder, the git remote, the LLM endpoint. Mail accounts are part of
 * the mail contract (./mail). zod only.
 */
import { z } from 'zod';
import { route } from './route';

/** The fixed port Mailroom tries first (not assigned to a well-known service). */
export const DEFAULT_PORT = 7719;

export const VaultSettingBodySchema = z.object({ path: z.string().trim().min(1, 'choose a folder') });
export const GitRemoteBodySchema = z.object({ url: z.string().trim() });
/** Test push: to `url`, or to the stored remote when it is missing or empty (a masked URL means the stored one). */
export const GitRemoteTestBodySchema = z.object({ url: z.string().optional().catch(undefined) });
export const LlmSettingBodySchema = z.object({
  base_url: z.string().trim(),
  model: z.string().trim(),
  /** Omitted: keep the stored key; '' removes it. */
  api_key: z.string().optional(),
});
export type LlmSettingBody = z.input<typeof LlmSettingBodySchema>;

export const CheckResultSchema = z.object({ ok: z.boolean(), message: z.string(), code: z.string().optional() });
export type CheckResult = z.infer<typeof CheckResultSchema>;

export const SettingsDto = z.object({
  data_dir: z.string(),
  config_file: z.string(),
  vault: z.object({ path: z.string(), demo: z.boolean() }),
  address: z.object({
    /** The port this run listens on. */
    port: z.number(),
    /** The port Mailroom tries first (remembered in config.json). */
    preferred: z.number(),
    /** Set when the preferred port was taken and another one was used. */
    note: z.string().nullable(),
    url: z.string(),
  }),
  git_remote: z.string().nullable(),
  llm: z.object({ base_url: z.string(), model: z.string(), has_api_key: z.boolean() }).nullable(),
  models: z.record(z.string(), z.string()),
});
export type SettingsDto = z.infer<typeof SettingsDto>;

/** Reply of PUT /api/settings/vault: saved; the owner restarts on the new vault right after. */
export const VaultSwitchDto = z.object({ path: z.string(), notes: z.number(), restarting: z.boolean() });
export type VaultSwitchDto = z.infer<typeof VaultSwitchDto>;

export const settingsRoutes = {
  get: route('GET', '/api/settings', { reply: SettingsDto }),
  vault: route('PUT', '/api/settings/vault', { body: VaultSettingBodySchema, reply: VaultSwitchDto }),
  gitRemote: route('PUT', '/api/settings/git-remote', { body: GitRemoteBodySchema, reply: SettingsDto }),
  testGitRemote: route('POST', '/api/settings/git-remote/test', { body: GitRemoteTestBodySchema, reply: CheckResultSchema }),
  llm: route('PUT', '/api/settings/llm', { body: LlmSettingBodySchema, reply: SettingsDto }),
  testLlm: route('POST', '/api/settings/llm/test', { body: LlmSettingBodySchema, reply: CheckResultSchema }),
} as const;

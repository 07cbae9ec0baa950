/**
 * Settings and mail accounts: REST bodies and replies shared by the owner and the renderer.
 * One zod schema per shape; the server validates with it, the renderer types with its inferred type.
 */
import { z } from 'zod';

/** The fixed port Mailroom tries first (not assigned to a well-known service). */
export const DEFAULT_PORT = 7719;

// ---------- mail accounts (IMAP + SMTP per inbox) ----------

export const ImapAccountSchema = z.object({
  host: z.string().trim().min(1, 'the IMAP server name is missing'),
  port: z.number().int().min(1).max(65535),
  secure: z.boolean().default(true),
  user: z.string().min(1, 'the IMAP user name is missing'),
  /** Omitted on edit: keep the stored one. */
  password: z.string().optional(),
  mailbox: z.string().default('INBOX'),
});
export type ImapAccountInput = z.input<typeof ImapAccountSchema>;

export const SmtpAccountSchema = z.object({
  host: z.string().trim().min(1, 'the SMTP server name is missing'),
  port: z.number().int().min(1).max(65535),
  secure: z.boolean().default(false),
  user: z.string().optional(),
  password: z.string().optional(),
});
export type SmtpAccountInput = z.input<typeof SmtpAccountSchema>;

/** POST /api/mail/accounts/test — tries a login without saving anything. */
export const MailTestBodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('imap'), settings: ImapAccountSchema, inbox_id: z.string().optional() }),
  z.object({ kind: z.literal('smtp'), settings: SmtpAccountSchema, inbox_id: z.string().optional() }),
]);
export type MailTestBody = z.input<typeof MailTestBodySchema>;

export const MailTestResultSchema = z.object({
  ok: z.boolean(),
  /** What happened, in words ("Logged in; INBOX has 3 messages.", "The server refused the password."). */
  message: z.string(),
  /** auth_failed, unreachable, host_not_found, tls_failed, timeout, mailbox_not_found, server_error. */
  code: z.string().optional(),
  ms: z.number(),
});
export type MailTestResult = z.infer<typeof MailTestResultSchema>;

/** The live state of an inbox's IMAP sync (GET /api/mail/inboxes → sync, hub MailSync). */
export const ImapSyncStateSchema = z.object({
  status: z.enum(['connecting', 'idle', 'syncing', 'error', 'stopped']),
  /** The last failure in words. */
  error: z.string().optional(),
  error_code: z.string().optional(),
  /** Failures in a row since the last successful login. */
  failures: z.number().optional(),
  /** When the next attempt happens (after an error). */
  next_retry_at: z.string().optional(),
  retry_in_ms: z.number().optional(),
  last_uid: z.number().optional(),
  synced_at: z.string().optional(),
});
export type ImapSyncState = z.infer<typeof ImapSyncStateSchema>;

/** How an inbox with its accounts looks on the wire (GET /api/mail/inboxes). */
export interface MailInboxView {
  id: string;
  address: string;
  name: string | null;
  labels: string[];
  status: 'active' | 'paused';
  unread: number;
  threads: number;
  imap: { host: string; port: number; secure: boolean; user: string; mailbox: string; has_password: boolean } | null;
  smtp: { host: string; port: number; secure: boolean; user: string | null; has_password: boolean } | null;
  sync: ImapSyncState | null;
}

// ---------- app settings (config.json) ----------

export const VaultSettingBodySchema = z.object({ path: z.string().trim().min(1, 'choose a folder') });
export const GitRemoteBodySchema = z.object({ url: z.string().trim() });
export const LlmSettingBodySchema = z.object({
  base_url: z.string().trim(),
  model: z.string().trim(),
  /** Omitted: keep the stored key; '' removes it. */
  api_key: z.string().optional(),
});
export type LlmSettingBody = z.input<typeof LlmSettingBodySchema>;

export const CheckResultSchema = z.object({ ok: z.boolean(), message: z.string(), code: z.string().optional() });
export type CheckResult = z.infer<typeof CheckResultSchema>;

export interface SettingsDto {
  data_dir: string;
  config_file: string;
  vault: { path: string; demo: boolean };
  address: {
    /** The port this run listens on. */
    port: number;
    /** The port Mailroom tries first (remembered in config.json). */
    preferred: number;
    /** Set when the preferred port was taken and another one was used. */
    note: string | null;
    url: string;
  };
  git_remote: string | null;
  llm: { base_url: string; model: string; has_api_key: boolean } | null;
  models: Record<string, string>;
}

/** Reply of PUT /api/settings/vault: saved; the owner restarts on the new vault right after. */
export interface VaultSwitchDto {
  path: string;
  notes: number;
  restarting: boolean;
}

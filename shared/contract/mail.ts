/**
 * NeuralMail's REST contract (`/api/mail/...`) and hub payloads, shared by the owner, the Mail
 * page, Settings → Mail accounts and the CLI: inboxes with their IMAP/SMTP accounts, threads,
 * drafts, compose and forward, import, search.
 */
import { z } from 'zod';
import { route } from './route';
import { queryNumber, queryText } from './query';

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

export const Participant = z.object({ name: z.string().optional(), email: z.string() });
export type Participant = z.infer<typeof Participant>;

/** How an inbox with its accounts looks on the wire (GET /api/mail/inboxes): settings without secrets. */
export const InboxView = z.object({
  id: z.string(),
  address: z.string(),
  labels: z.array(z.string()),
  status: z.enum(['active', 'paused']),
  name: z.string().nullable(),
  unread: z.number(),
  threads: z.number(),
  imap: z.object({ host: z.string(), port: z.number(), secure: z.boolean(), user: z.string(), mailbox: z.string(), has_password: z.boolean() }).nullable(),
  smtp: z.object({ host: z.string(), port: z.number(), secure: z.boolean(), user: z.string().nullable(), has_password: z.boolean() }).nullable(),
  sync: ImapSyncStateSchema.nullable(),
});
export type InboxView = z.infer<typeof InboxView>;

export const Triage = z.object({
  intent: z.string(),
  urgency: z.enum(['low', 'medium', 'high']),
  sentiment: z.enum(['negative', 'neutral', 'positive']),
  confidence: z.number(),
  suggested_route: z.string().optional(),
  taxonomy_id: z.string().optional(),
  /** 1 when a person corrected it on this page (kept as a labelled example for later triage). */
  relabelled: z.number().optional(),
  /** The strongest signals behind the urgency (on-device triage), strongest first. */
  urgency_reasons: z.array(z.string()).optional(),
});
export type Triage = z.infer<typeof Triage>;

export const ThreadItem = z.object({
  id: z.string(),
  inbox_id: z.string(),
  subject: z.string(),
  status: z.enum(['open', 'closed', 'snoozed']),
  snooze_until: z.string().nullable(),
  labels: z.array(z.string()),
  participants: z.array(Participant),
  updated_at: z.string(),
  unread: z.number(),
  messages: z.number(),
  triage: Triage.nullable(),
});
export type ThreadItem = z.infer<typeof ThreadItem>;

export const MessageView = z.object({
  id: z.string(),
  thread_id: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  from: Participant.optional(),
  to: z.array(Participant),
  cc: z.array(Participant),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  created_at: z.string(),
  remote_content: z.boolean(),
  attachments: z.array(z.object({ filename: z.string(), content_type: z.string(), size: z.number() })),
  triage: Triage.nullable(),
});
export type MessageView = z.infer<typeof MessageView>;

export const DraftView = z.object({
  id: z.string(),
  thread_id: z.string(),
  policy_id: z.string(),
  goal: z.string(),
  body: z.string(),
  risk_flags: z.array(z.string()),
  needs_human_approval: z.boolean(),
  approved_at: z.string().nullable(),
  generator: z.string(),
  status: z.enum(['draft', 'approved', 'sent', 'discarded']),
});
export type DraftView = z.infer<typeof DraftView>;

export const OutboxView = z.object({
  idempotency_key: z.string(),
  message_id: z.string(),
  status: z.enum(['queued', 'sending', 'sent', 'failed', 'uncertain']),
  last_error: z.string().nullable(),
  draft_id: z.string().nullable(),
});
export type OutboxView = z.infer<typeof OutboxView>;

export const ThreadDetail = z.object({
  thread: ThreadItem.omit({ unread: true, messages: true }),
  messages: z.array(MessageView),
  drafts: z.array(DraftView),
  outbox: z.array(OutboxView),
  summary: z.string(),
});
export type ThreadDetail = z.infer<typeof ThreadDetail>;

export const SearchHit = z.object({
  message_id: z.string(),
  thread_id: z.string(),
  score: z.number(),
  snippet: z.string().optional(),
  subject: z.string(),
  from: Participant.nullable(),
  created_at: z.string().nullable(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const ImportReport = z.object({
  inbox_id: z.string(),
  total: z.number(),
  imported: z.number(),
  duplicates: z.number(),
  failed: z.array(z.object({ source: z.string(), error: z.string() })),
  thread_ids: z.array(z.string()),
  message_ids: z.array(z.string()),
});
export type ImportReport = z.infer<typeof ImportReport>;

/** Hub payloads (see `HubEvent` in ./hub). */
export interface MailChanged {
  inbox_id: string;
  reason: string;
  thread_id?: string;
  status?: string;
}
export interface MailImportProgress {
  import_id: string | null;
  inbox_id: string;
  phase: 'parse' | 'store' | 'done';
  done: number;
  total: number;
}
export type MailSync = ImapSyncState & { inbox_id: string };

// ---------- bodies ----------

export const InboxCreate = z.object({ address: z.string().min(3), id: z.string().optional(), name: z.string().optional(), labels: z.array(z.string()).optional() });
export const InboxPatch = z.object({
  name: z.string().nullable().optional(),
  labels: z.array(z.string()).optional(),
  status: z.enum(['active', 'paused']).optional(),
  imap: ImapAccountSchema.nullable().optional(),
  smtp: SmtpAccountSchema.nullable().optional(),
});
export const ThreadPatch = z.object({ status: z.enum(['open', 'closed', 'snoozed']).optional(), snooze_until: z.string().optional(), labels: z.array(z.string()).optional() });
export const DraftCreate = z.object({ policy_id: z.string().default('default'), goal: z.string().min(1) });
export const DraftPatch = z.object({ body: z.string().min(1) });
export const ReplyBody = z.object({ body_or_draft_id: z.string().min(1), idempotency_key: z.string().min(1) });
export const OutboxAction = z.object({ action: z.enum(['retry', 'mark_sent']) });
export const ImportPathBody = z.object({ inbox: z.string().min(1), path: z.string().min(1) });
export const TriageBody = z.object({ taxonomy_id: z.string().optional() });
export const RelabelBody = z.object({ intent: z.string().min(1).optional(), urgency: z.enum(['low', 'medium', 'high']).optional(), taxonomy_id: z.string().min(1).optional() });
/** The schema id is checked by the owner (it names the schemas it knows). */
export const ExtractBody = z.object({ schema_id: z.coerce.string().optional() });
/** Routing runs as a dry run unless `dry_run: false`. */
export const RouteMessageBody = z.object({ dry_run: z.boolean().optional() });

// ---------- compose and forward (From is always the inbox's own address, sent through its SMTP account) ----------

const Recipients = z.array(z.string().trim().min(1).max(320)).max(100);

/** POST /api/mail/inboxes/:id/send — a new message. */
export const MailSendBody = z
  .object({
    to: Recipients.min(1, 'Add at least one recipient (To).'),
    cc: Recipients.optional(),
    subject: z.string().max(998),
    body: z.string().max(1_000_000),
    /** One per message the person means to send (a retry with the same key never sends twice). */
    idempotency_key: z.string().trim().min(1).max(200),
  })
  .strict();
export type MailSendBody = z.infer<typeof MailSendBody>;

/** POST /api/mail/messages/:id/forward — forwards that message (its text quoted, its attachments along). */
export const MailForwardBody = MailSendBody.extend({ subject: z.string().max(998).optional() }).strict();
export type MailForwardBody = z.infer<typeof MailForwardBody>;

/** The reply of both: the outgoing message and, once sent and stored, its thread. */
export const MailSendResult = z.object({
  message_id: z.string(),
  status: z.enum(['queued', 'sent']),
  thread_id: z.string().nullable(),
});
export type MailSendResult = z.infer<typeof MailSendResult>;

/** Splits what a person typed in a To/Cc field ("a@x.org, b@y.org; c@z.org") into addresses. */
export function splitRecipients(s: string): string[] {
  return s
    .split(/[,;\s]+/)
    .map((x) => x.trim().replace(/^<|>$/g, ''))
    .filter(Boolean);
}

/** "Fwd: subject" unless it already is one. */
export const forwardSubject = (subject: string): string => (/^(fwd?|fw):/i.test(subject.trim()) ? subject.trim() : `Fwd: ${subject.trim()}`);

// ---------- queries ----------

const ThreadStatusQuery = z.preprocess((v) => v || undefined, z.enum(['open', 'closed', 'snoozed'], { error: 'status must be open, closed or snoozed.' }).optional());
/** GET /api/mail/inboxes/:id/threads: by recent activity, at most `limit` (default 200, at most 500). */
export const ThreadsQuery = z.object({ status: ThreadStatusQuery, label: queryText(), limit: queryNumber(200, { max: 500 }) });
/** GET /api/mail/inboxes/:id/threads/page: one page (default 100, 1–500); `cursor` from the previous page. */
export const ThreadsPageQuery = z.object({ status: ThreadStatusQuery, limit: queryNumber(100, { min: 1, max: 500 }), cursor: queryText() });
const PASS_INBOX = 'Pass ?inbox=ID&q=words.';
/** GET /api/mail/search: `inbox` and `q` (words), optional `start`/`end` (ISO) and `top_k` (default 20, at most 50). */
export const MailSearchQuery = z.object({
  inbox: z.string({ error: PASS_INBOX }).min(1, PASS_INBOX),
  q: z.string().default(''),
  start: queryText(),
  end: queryText(),
  top_k: queryNumber(20, { max: 50 }),
});
const PASS_UPLOAD = 'Pass ?inbox=ID (and &filename=…) with the mbox or .eml file as the body.';
/** POST /api/mail/import: the mbox or .eml file is the (streamed) body; `import_id` tags the hub's progress events. */
export const ImportUploadQuery = z.object({
  inbox: z.string({ error: PASS_UPLOAD }).min(1, PASS_UPLOAD),
  filename: queryText().transform((v) => v ?? 'upload'),
  import_id: queryText(),
});

export const ThreadPage = z.object({ threads: z.array(ThreadItem), next_cursor: z.string().nullable() });
export type ThreadPage = z.infer<typeof ThreadPage>;

const Ok = z.object({ ok: z.boolean() });
const Result = z.object({ result: z.unknown() });
const ThreadHead = ThreadItem.omit({ unread: true, messages: true, triage: true });
/** What a send or reply reports (outbox status and ids). */
const SendStatus = z.object({ status: z.string() }).passthrough();

export const mailRoutes = {
  inboxes: route('GET', '/api/mail/inboxes', { reply: z.array(InboxView) }),
  createInbox: route('POST', '/api/mail/inboxes', { body: InboxCreate, reply: InboxView }),
  /** Settings → Mail accounts: "Test connection" before saving. */
  testAccount: route('POST', '/api/mail/accounts/test', { body: MailTestBodySchema, reply: MailTestResultSchema }),
  inbox: route('GET', '/api/mail/inboxes/:id', { reply: InboxView }),
  updateInbox: route('PATCH', '/api/mail/inboxes/:id', { body: InboxPatch, reply: InboxView }),
  deleteInbox: route('DELETE', '/api/mail/inboxes/:id', { reply: Ok }),
  threads: route('GET', '/api/mail/inboxes/:id/threads', { query: ThreadsQuery, reply: z.array(ThreadItem) }),
  /** The Mail page's virtualized thread list: pages by recent activity, keyset cursors. */
  threadsPage: route('GET', '/api/mail/inboxes/:id/threads/page', { query: ThreadsPageQuery, reply: ThreadPage }),
  thread: route('GET', '/api/mail/threads/:id', { reply: ThreadDetail }),
  updateThread: route('PATCH', '/api/mail/threads/:id', { body: ThreadPatch, reply: ThreadHead }),
  threadSeen: route('POST', '/api/mail/threads/:id/seen', { reply: Ok }),
  search: route('GET', '/api/mail/search', { query: MailSearchQuery, reply: z.object({ results: z.array(SearchHit) }) }),
  triage: route('POST', '/api/mail/messages/:id/triage', { body: TriageBody, reply: z.unknown() }),
  /** Intent / urgency change: kept as a labelled example for later triage. */
  relabel: route('POST', '/api/mail/messages/:id/relabel', { body: RelabelBody, reply: z.unknown() }),
  extract: route('POST', '/api/mail/messages/:id/extract', { body: ExtractBody, reply: z.unknown() }),
  /** The message as received (message/rfc822, an attachment download), not JSON. */
  raw: route('GET', '/api/mail/messages/:id/raw', { reply: z.string() }),
  messageToInbox: route('POST', '/api/mail/messages/:id/save-to-inbox', { reply: Result }),
  threadToInbox: route('POST', '/api/mail/threads/:id/save-to-inbox', { reply: Result }),
  routeMessage: route('POST', '/api/mail/messages/:id/route', { body: RouteMessageBody, reply: Result }),
  createDraft: route('POST', '/api/mail/threads/:id/drafts', { body: DraftCreate, reply: z.unknown() }),
  updateDraft: route('PATCH', '/api/mail/drafts/:id', { body: DraftPatch, reply: z.unknown() }),
  approveDraft: route('POST', '/api/mail/drafts/:id/approve', { reply: z.unknown() }),
  deleteDraft: route('DELETE', '/api/mail/drafts/:id', { reply: Ok }),
  /** Approve & Send: the key is derived from the draft, so a double click never sends twice. */
  sendDraft: route('POST', '/api/mail/drafts/:id/send', { reply: SendStatus }),
  send: route('POST', '/api/mail/inboxes/:id/send', { body: MailSendBody, reply: MailSendResult }),
  forward: route('POST', '/api/mail/messages/:id/forward', { body: MailForwardBody, reply: MailSendResult }),
  reply: route('POST', '/api/mail/threads/:id/reply', { body: ReplyBody, reply: SendStatus }),
  /** `?inbox=` narrows it to one inbox. */
  outbox: route('GET', '/api/mail/outbox', { query: z.object({ inbox: queryText() }), reply: z.array(OutboxView) }),
  resolveOutbox: route('POST', '/api/mail/outbox/:key/resolve', { body: OutboxAction, reply: z.unknown() }),
  /** The upload itself is the body (streamed to a temp file; see ImportUploadQuery). */
  importUpload: route('POST', '/api/mail/import', { query: ImportUploadQuery, reply: ImportReport }),
  importPath: route('POST', '/api/mail/import-path', { body: ImportPathBody, reply: ImportReport }),
  taxonomy: route('GET', '/api/mail/taxonomies/:id', { reply: z.object({ intents: z.array(z.object({ id: z.string() }).passthrough()) }).passthrough() }),
  config: route('GET', '/api/mail/config', { reply: z.object({ taxonomies: z.array(z.string()), schemas: z.array(z.string()), policies: z.array(z.string()) }) }),
  installDefaults: route('POST', '/api/mail/config/install-defaults', { reply: z.object({ written: z.array(z.string()) }) }),
  sync: route('POST', '/api/mail/inboxes/:id/sync', { reply: InboxView }),
} as const;

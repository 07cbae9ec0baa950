/** NeuralMail's REST contract (`/api/mail/...`) and hub payloads, shared by the owner, the Mail page and the CLI. */
import { z } from 'zod';
import { route } from './route';

export const Participant = z.object({ name: z.string().optional(), email: z.string() });
export type Participant = z.infer<typeof Participant>;

export const InboxView = z.object({
  id: z.string(),
  address: z.string(),
  labels: z.array(z.string()),
  status: z.enum(['active', 'paused']),
  name: z.string().nullable(),
  unread: z.number(),
  threads: z.number(),
  smtp: z.object({ host: z.string(), port: z.number() }).nullable(),
  imap: z.object({ host: z.string(), port: z.number(), user: z.string() }).nullable(),
  sync: z.object({ status: z.string(), error: z.string().optional() }).nullable(),
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
export interface MailSync {
  inbox_id: string;
  status: 'connecting' | 'idle' | 'syncing' | 'error' | 'stopped';
  error?: string;
  last_uid?: number;
  synced_at?: string;
}

// ---------- bodies ----------

export const InboxCreate = z.object({ address: z.string().min(3), id: z.string().optional(), name: z.string().optional(), labels: z.array(z.string()).optional() });
export const Imap = z.object({ host: z.string().min(1), port: z.number().int().min(1).max(65535), secure: z.boolean().default(true), user: z.string().min(1), password: z.string().optional(), mailbox: z.string().default('INBOX') });
export const Smtp = z.object({ host: z.string().min(1), port: z.number().int().min(1).max(65535), secure: z.boolean().default(false), user: z.string().optional(), password: z.string().optional() });
export const InboxPatch = z.object({
  name: z.string().nullable().optional(),
  labels: z.array(z.string()).optional(),
  status: z.enum(['active', 'paused']).optional(),
  imap: Imap.nullable().optional(),
  smtp: Smtp.nullable().optional(),
});
export const ThreadPatch = z.object({ status: z.enum(['open', 'closed', 'snoozed']).optional(), snooze_until: z.string().optional(), labels: z.array(z.string()).optional() });
export const DraftCreate = z.object({ policy_id: z.string().default('default'), goal: z.string().min(1) });
export const DraftPatch = z.object({ body: z.string().min(1) });
export const ReplyBody = z.object({ body_or_draft_id: z.string().min(1), idempotency_key: z.string().min(1) });
export const OutboxAction = z.object({ action: z.enum(['retry', 'mark_sent']) });
export const ImportPathBody = z.object({ inbox: z.string().min(1), path: z.string().min(1) });
export const TriageBody = z.object({ taxonomy_id: z.string().optional() });
/** Urgency is checked by the owner (low, medium or high). */
export const RelabelBody = z.object({ intent: z.string().min(1).optional(), urgency: z.string().optional(), taxonomy_id: z.string().min(1).optional() });

export const ThreadPage = z.object({ threads: z.array(ThreadItem), next_cursor: z.string().nullable() });
export type ThreadPage = z.infer<typeof ThreadPage>;

const Ok = z.object({ ok: z.boolean() });
const Result = z.object({ result: z.unknown() });

export const mailRoutes = {
  inboxes: route('GET', '/api/mail/inboxes', { reply: z.array(InboxView) }),
  createInbox: route('POST', '/api/mail/inboxes', { body: InboxCreate, reply: InboxView }),
  inbox: route('GET', '/api/mail/inboxes/:id', { reply: InboxView }),
  updateInbox: route('PATCH', '/api/mail/inboxes/:id', { body: InboxPatch, reply: InboxView }),
  deleteInbox: route('DELETE', '/api/mail/inboxes/:id', { reply: Ok }),
  threads: route('GET', '/api/mail/inboxes/:id/threads', { reply: z.array(ThreadItem) }),
  /** One page of threads by recent activity (query: limit, status, cursor); keyset cursors. */
  threadsPage: route('GET', '/api/mail/inboxes/:id/threads/page', { reply: ThreadPage }),
  thread: route('GET', '/api/mail/threads/:id', { reply: ThreadDetail }),
  updateThread: route('PATCH', '/api/mail/threads/:id', { body: ThreadPatch, reply: ThreadItem.omit({ unread: true, messages: true, triage: true }) }),
  threadSeen: route('POST', '/api/mail/threads/:id/seen', { reply: Ok }),
  search: route('GET', '/api/mail/search', { reply: z.object({ results: z.array(SearchHit) }) }),
  triage: route('POST', '/api/mail/messages/:id/triage', { body: TriageBody, reply: z.unknown() }),
  relabel: route('POST', '/api/mail/messages/:id/relabel', { body: RelabelBody, reply: z.unknown() }),
  messageToInbox: route('POST', '/api/mail/messages/:id/save-to-inbox', { reply: Result }),
  threadToInbox: route('POST', '/api/mail/threads/:id/save-to-inbox', { reply: Result }),
  createDraft: route('POST', '/api/mail/threads/:id/drafts', { body: DraftCreate, reply: z.unknown() }),
  updateDraft: route('PATCH', '/api/mail/drafts/:id', { body: DraftPatch, reply: z.unknown() }),
  approveDraft: route('POST', '/api/mail/drafts/:id/approve', { reply: z.unknown() }),
  deleteDraft: route('DELETE', '/api/mail/drafts/:id', { reply: Ok }),
  sendDraft: route('POST', '/api/mail/drafts/:id/send', { reply: z.object({ status: z.string() }).passthrough() }),
  reply: route('POST', '/api/mail/threads/:id/reply', { body: ReplyBody, reply: z.object({ status: z.string() }).passthrough() }),
  outbox: route('GET', '/api/mail/outbox', { reply: z.array(OutboxView) }),
  resolveOutbox: route('POST', '/api/mail/outbox/:key/resolve', { body: OutboxAction, reply: z.unknown() }),
  importPath: route('POST', '/api/mail/import-path', { body: ImportPathBody, reply: ImportReport }),
  taxonomy: route('GET', '/api/mail/taxonomies/:id', { reply: z.object({ intents: z.array(z.object({ id: z.string() }).passthrough()) }).passthrough() }),
  config: route('GET', '/api/mail/config', { reply: z.object({ taxonomies: z.array(z.string()), schemas: z.array(z.string()), policies: z.array(z.string()) }) }),
  installDefaults: route('POST', '/api/mail/config/install-defaults', { reply: z.object({ written: z.array(z.string()) }) }),
  sync: route('POST', '/api/mail/inboxes/:id/sync', { reply: InboxView }),
} as const;

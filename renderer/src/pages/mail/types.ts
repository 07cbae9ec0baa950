/** DTOs of /api/mail (see electron/core/domains/mail/routes.ts). */
export interface Participant {
  name?: string;
  email: string;
}

export interface InboxView {
  id: string;
  address: string;
  labels: string[];
  status: 'active' | 'paused';
  name: string | null;
  unread: number;
  threads: number;
  smtp: { host: string; port: number } | null;
  imap: { host: string; port: number; user: string } | null;
  sync: { status: string; error?: string } | null;
}

export interface Triage {
  intent: string;
  urgency: 'low' | 'medium' | 'high';
  sentiment: 'negative' | 'neutral' | 'positive';
  confidence: number;
  suggested_route?: string;
  taxonomy_id?: string;
  /** 1 when a person corrected it on this page (kept as a labelled example for later triage). */
  relabelled?: number;
}

export interface ThreadItem {
  id: string;
  inbox_id: string;
  subject: string;
  status: 'open' | 'closed' | 'snoozed';
  snooze_until: string | null;
  labels: string[];
  participants: Participant[];
  updated_at: string;
  unread: number;
  messages: number;
  triage: Triage | null;
}

export interface MessageView {
  id: string;
  thread_id: string;
  direction: 'inbound' | 'outbound';
  from?: Participant;
  to: Participant[];
  cc: Participant[];
  subject: string;
  text: string;
  html?: string;
  created_at: string;
  remote_content: boolean;
  attachments: Array<{ filename: string; content_type: string; size: number }>;
  triage: Triage | null;
}

export interface DraftView {
  id: string;
  thread_id: string;
  policy_id: string;
  goal: string;
  body: string;
  risk_flags: string[];
  needs_human_approval: boolean;
  approved_at: string | null;
  generator: string;
  status: 'draft' | 'approved' | 'sent' | 'discarded';
}

export interface OutboxView {
  idempotency_key: string;
  message_id: string;
  status: 'queued' | 'sending' | 'sent' | 'failed' | 'uncertain';
  last_error: string | null;
  draft_id: string | null;
}

export interface ThreadDetail {
  thread: ThreadItem;
  messages: MessageView[];
  drafts: DraftView[];
  outbox: OutboxView[];
  summary: string;
}

export const who = (p?: Participant) => (p ? p.name || p.email : 'unknown');

export function when(iso: string): string {
  const d = new Date(iso);
  return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** What each risk flag means to the person approving. */
export const FLAG_TEXT: Record<string, string> = {
  promises_money: 'mentions money, a refund or a discount',
  promises_date: 'commits to a date or deadline',
  external_recipients: 'goes outside your organisation',
  missing_signature: 'lacks the policy signature',
  too_long: 'is longer than the policy allows',
};
export const flagText = (f: string) => FLAG_TEXT[f] ?? (f.startsWith('must_not:') ? `contains “${f.slice(9)}”` : f.startsWith('must:') ? `misses: ${f.slice(5)}` : f);

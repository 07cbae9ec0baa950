/**
 * What History reads from the domains that keep journals, as ports the host hands to
 * `createHistory`: the inbox's filing batches (and their file steps), the router's distribution
 * runs and the mail outbox's sent messages. Each domain answers from its own tables; History never
 * reads another domain's tables. The shapes are History's; the domains match them structurally.
 */

export interface BatchRow {
  id: string;
  kind: 'execute' | 'undo';
  status: 'running' | 'done' | 'undone';
  undo_of: string | null;
  created_at: string;
  finished_at: string | null;
  git_commit: string | null;
  message: string;
  results: unknown;
}

export interface StepRow {
  seq: number;
  op: 'move' | 'write';
  src: string | null;
  dst: string;
  data: Buffer | null;
  before_data: Buffer | null;
}

export interface RunRow {
  run_id: string;
  at: string;
  items: number;
  titles: string;
  routes: string;
  tools: string;
  ok: number;
  failed: number;
}

export interface SentRow {
  key: string;
  at: string;
  to: string[];
  from: string;
  subject: string;
  thread_id: string;
  message_id: string;
}

/** The inbox's journal of filing batches (execute and undo), newest first. */
export interface InboxBatchLog {
  batches(limit: number): BatchRow[];
  steps(batchId: string): StepRow[];
}

/** The router's distribution runs (one per routing of a set of items), newest first. */
export interface RouterRunLog {
  runs(limit: number): RunRow[];
}

/** The mail outbox's sent messages, newest first. */
export interface MailSentLog {
  sent(limit: number): SentRow[];
}

/**
 * What History reads from the domains that keep journals, as ports the host hands to
 * `createHistory`: the inbox's filing batches (and their file steps), the router's distribution
 * runs and the mail outbox's sent messages. Each domain answers from its own tables, in the row
 * shapes its public face exports; History never reads another domain's tables.
 */
import type { JournalBatch, JournalStep } from '../inbox';
import type { DistributionRun } from '../router';
import type { SentEntry } from '../mail';

export type BatchRow = JournalBatch;
export type StepRow = JournalStep;
export type RunRow = DistributionRun;
export type SentRow = SentEntry;

/** The inbox's journal of filing batches (execute and undo), newest first. */
export interface InboxBatchLog {
  batches(limit: number): BatchRow[];
  steps(batchId: string): StepRow[];
}

/** The router's distribution runs (one per routing of a set of items), newest first. */
export interface RouterRunLog {
  runs(limit: number): RunRow[];
  /** One run by id, looked up by key (History's detail). */
  run(runId: string): RunRow | undefined;
}

/** The mail outbox's sent messages, newest first. */
export interface MailSentLog {
  sent(limit: number): SentRow[];
  /** One sent message by its idempotency key, looked up by key (History's detail). */
  sentOne(key: string): SentRow | undefined;
}

/**
 * The history domain's public face.
 *
 * History: every batch Mailroom committed or sent, newest first — the vault's git log of
 * Mailroom's own commits (inbox executes and undos, captures, memories, rules) joined with the
 * journals (inbox batches in the state DB, router distributions, the mail outbox) — with a diff
 * per batch and undo where the inbox journal makes it exact.
 */
export { createHistory, type HistoryDeps, type HistoryApi, type HistoryDomain } from './domain';
export { unifiedDiff, isBinary } from './diff';
export type { BatchRow, StepRow, RunRow, SentRow, InboxBatchLog, RouterRunLog, MailSentLog } from './ports';

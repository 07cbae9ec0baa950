/**
 * The inbox's journal of filing batches, read back for History (the `InboxJournal` port): each
 * batch's message, results and commit, and its file steps with the bytes before and after.
 */
import type Database from 'better-sqlite3';

export interface JournalBatch {
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

export interface JournalStep {
  seq: number;
  op: 'move' | 'write';
  src: string | null;
  dst: string;
  data: Buffer | null;
  before_data: Buffer | null;
}

export function journalBatches(db: Database.Database, limit: number): JournalBatch[] {
  const rows = db
    .prepare<[number], Omit<JournalBatch, 'message' | 'results'> & { summary: string }>(
      'SELECT id, kind, status, undo_of, created_at, finished_at, git_commit, summary FROM inbox_batches ORDER BY created_at DESC LIMIT ?',
    )
    .all(limit);
  return rows.map(({ summary, ...r }) => {
    let s: { message?: string; summary?: unknown } = {};
    try {
      s = JSON.parse(summary) as typeof s;
    } catch {
      s = {};
    }
    return { ...r, message: s.message ?? `Mailroom: inbox batch ${r.id}`, results: s.summary ?? null };
  });
}

export function journalSteps(db: Database.Database, batchId: string): JournalStep[] {
  return db.prepare<[string], JournalStep>('SELECT seq, op, src, dst, data, before_data FROM inbox_steps WHERE batch_id = ? ORDER BY seq').all(batchId);
}

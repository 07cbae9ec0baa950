/**
 * Read-only views of the journals other domains keep in the state DB: inbox batches (and their
 * steps), router distributions, the mail outbox. Each query first checks its table exists, so a
 * state DB without that domain's migration simply has nothing to show.
 *
 * ARCHITECTURE EXCEPTION (documented in docs/architecture.md, "Known exception"): these tables
 * belong to the inbox, router and mail domains; reading them here bypasses those domains' public
 * faces. To be replaced by typed ports handed to createHistory by the host.
 */
import type Database from 'better-sqlite3';

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

export class Journals {
  constructor(private readonly db: Database.Database) {}

  private has(table: string): boolean {
    return !!this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  }

  batches(limit = 500): BatchRow[] {
    if (!this.has('inbox_batches')) return [];
    const rows = this.db.prepare('SELECT id, kind, status, undo_of, created_at, finished_at, git_commit, summary FROM inbox_batches ORDER BY created_at DESC LIMIT ?').all(limit) as Array<
      Omit<BatchRow, 'message' | 'results'> & { summary: string }
    >;
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

  batch(id: string): BatchRow | undefined {
    return this.batches(100_000).find((b) => b.id === id);
  }

  steps(batchId: string): StepRow[] {
    if (!this.has('inbox_steps')) return [];
    return this.db.prepare('SELECT seq, op, src, dst, data, before_data FROM inbox_steps WHERE batch_id = ? ORDER BY seq').all(batchId) as StepRow[];
  }

  runs(limit = 500): RunRow[] {
    if (!this.has('distributions')) return [];
    return this.db
      .prepare(
        `SELECT run_id, max(created_at) AS at, count(DISTINCT item_key) AS items, group_concat(DISTINCT item_title) AS titles,
                coalesce(group_concat(DISTINCT route_name), '') AS routes, coalesce(group_concat(DISTINCT tool), '') AS tools,
                sum(status = 'ok') AS ok, sum(status = 'error') AS failed
         FROM distributions GROUP BY run_id ORDER BY at DESC LIMIT ?`,
      )
      .all(limit) as RunRow[];
  }

  sent(limit = 500): SentRow[] {
    if (!this.has('mail_outbox')) return [];
    const subject = this.has('mail_threads') ? '(SELECT subject FROM mail_threads t WHERE t.id = o.thread_id)' : "''";
    const rows = this.db
      .prepare(`SELECT o.idempotency_key AS key, coalesce(o.sent_at, o.created_at) AS at, o.envelope, coalesce(${subject}, '') AS subject, o.thread_id, o.message_id FROM mail_outbox o WHERE o.status = 'sent' ORDER BY at DESC LIMIT ?`)
      .all(limit) as Array<{ key: string; at: string; envelope: string; subject: string; thread_id: string; message_id: string }>;
    return rows.map(({ envelope, ...r }) => {
      let e: { from?: string; to?: string[] } = {};
      try {
        e = JSON.parse(envelope) as typeof e;
      } catch {
        e = {};
      }
      return { ...r, from: e.from ?? '', to: e.to ?? [] };
    });
  }
}

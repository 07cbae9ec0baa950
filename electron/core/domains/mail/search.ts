import type Database from 'better-sqlite3';
import { normalizeTs } from './store';

export interface SearchHit {
  message_id: string;
  thread_id: string;
  score: number;
  snippet: string;
  subject: string;
  created_at: string;
}

export interface SearchQuery {
  inboxId: string;
  query: string;
  topK: number;
  start?: string;
  end?: string;
}

/** User text → FTS5 terms, each quoted so operators and punctuation in the query are literal. */
export function ftsTerms(query: string): string[] {
  return (query.normalize('NFC').match(/[\p{L}\p{N}][\p{L}\p{N}_'.@-]*/gu) ?? [])
    .map((t) => t.replace(/[.'@-]+$/g, ''))
    .filter((t) => t.length > 0)
    .slice(0, 32)
    .map((t) => `"${t.replace(/"/g, '""')}"`);
}

/**
 * BM25 over subject (weighted ×3), participants (×2) and text. All terms must match; if that finds
 * nothing, any term may (ranked by BM25), so long natural-language queries still answer.
 */
export function searchMessages(db: Database.Database, q: SearchQuery): SearchHit[] {
  const terms = ftsTerms(q.query);
  if (terms.length === 0) return [];
  const run = (match: string) =>
    db
      .prepare(
        `SELECT m.id AS message_id, m.thread_id, -bm25(mail_fts, 3.0, 2.0, 1.0) AS score,
                snippet(mail_fts, -1, '[', ']', ' … ', 16) AS snippet, m.subject, m.created_at
           FROM mail_fts JOIN mail_messages m ON m.rowid = mail_fts.rowid
          WHERE mail_fts MATCH @match AND m.inbox_id = @inbox
            AND (@start IS NULL OR m.created_at >= @start) AND (@end IS NULL OR m.created_at <= @end)
          ORDER BY bm25(mail_fts, 3.0, 2.0, 1.0) LIMIT @k`,
      )
      .all({ match, inbox: q.inboxId, start: normalizeTs(q.start), end: normalizeTs(q.end), k: q.topK }) as SearchHit[];
  let hits = run(terms.join(' AND '));
  if (hits.length === 0 && terms.length > 1) hits = run(terms.join(' OR '));
  return hits.map((h) => ({ ...h, snippet: h.snippet || h.subject }));
}

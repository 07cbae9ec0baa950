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

/** Above this many matching messages a term counts as common and the query is planned. */
export const COMMON_MAIL_TERM = 2000;

/**
 * BM25 over subject (weighted ×3), participants (×2) and text. All terms must match; if that finds
 * nothing, any term may (ranked by BM25), so long natural-language queries still answer.
 * Planned for frequent words: each term's message count is probed with an early-terminating rowid
 * scan; when every term is common (BM25's IDF is near zero) the newest matches win, subject
 * matches first, read with early termination; OR drops common terms when rarer ones exist.
 * Snippets are computed for the returned page only.
 */
export function searchMessages(db: Database.Database, q: SearchQuery): SearchHit[] {
  const terms = ftsTerms(q.query);
  if (terms.length === 0) return [];
  const args = { inbox: q.inboxId, start: normalizeTs(q.start), end: normalizeTs(q.end), k: q.topK };
  const cache = new Map<string, boolean>();
  const common = (t: string) => {
    let c = cache.get(t);
    if (c === undefined) {
      c = !!db.prepare('SELECT rowid FROM mail_fts WHERE mail_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?').get(t, COMMON_MAIL_TERM);
      cache.set(t, c);
    }
    return c;
  };
  const FILTER = `m.inbox_id = @inbox AND (@start IS NULL OR m.created_at >= @start) AND (@end IS NULL OR m.created_at <= @end)`;
  const ranked = (match: string) =>
    db
      .prepare(
        `SELECT m.rowid, -bm25(mail_fts, 3.0, 2.0, 1.0) AS score
           FROM mail_fts JOIN mail_messages m ON m.rowid = mail_fts.rowid
          WHERE mail_fts MATCH @match AND ${FILTER}
          ORDER BY bm25(mail_fts, 3.0, 2.0, 1.0) LIMIT @k`,
      )
      .all({ ...args, match }) as Array<{ rowid: number; score: number }>;
  const newest = (match: string, k: number) =>
    db
      .prepare(`SELECT m.rowid FROM mail_fts JOIN mail_messages m ON m.rowid = mail_fts.rowid WHERE mail_fts MATCH @match AND ${FILTER} ORDER BY mail_fts.rowid DESC LIMIT @k`)
      .all({ ...args, match, k }) as Array<{ rowid: number }>;
  const run = (op: 'AND' | 'OR'): Array<{ rowid: number; score: number }> => {
    const rare = terms.filter((t) => !common(t));
    if (rare.length) return ranked(op === 'AND' ? terms.join(' AND ') : rare.join(' OR '));
    const match = terms.join(op === 'AND' ? ' AND ' : ' OR ');
    const strong = newest(`{subject} : (${match})`, q.topK);
    const seen = new Set(strong.map((r) => r.rowid));
    const rest = strong.length < q.topK ? newest(match, q.topK + strong.length).filter((r) => !seen.has(r.rowid)) : [];
    return [...strong.map((r, i) => ({ rowid: r.rowid, score: 2 - i / 1000 })), ...rest.map((r, i) => ({ rowid: r.rowid, score: 1 - i / 1000 }))].slice(0, q.topK);
  };
  let rows = run('AND');
  let match = terms.join(' AND ');
  if (rows.length === 0 && terms.length > 1) {
    rows = run('OR');
    match = terms.join(' OR ');
  }
  // Snippets and columns for the page only.
  // SQLite's FTS5 (3.53) ignores a bound `rowid = ?` next to MATCH and returns the first match,
  // so every hit got the first hit's snippet; a one-row range is honoured.
  const snip = db.prepare(`SELECT snippet(mail_fts, -1, '[', ']', ' … ', 16) AS snippet FROM mail_fts WHERE mail_fts MATCH ? AND rowid >= ? AND rowid <= ?`);
  const cols = db.prepare('SELECT id AS message_id, thread_id, subject, created_at FROM mail_messages WHERE rowid = ?');
  return rows.flatMap((r) => {
    const h = cols.get(r.rowid) as Omit<SearchHit, 'score' | 'snippet'> | undefined;
    if (!h) return [];
    const s = (snip.get(match, r.rowid, r.rowid) as { snippet: string } | undefined)?.snippet;
    return [{ ...h, score: r.score, snippet: s || h.subject }];
  });
}

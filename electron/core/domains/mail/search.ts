import type Database from 'better-sqlite3';
import { makeSnippet } from '../../kernel/snippet';
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

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
/** A prepared statement per connection and SQL, made once (a search runs the same few each call). */
function prepared(db: Database.Database, sql: string): Database.Statement {
  let m = statements.get(db);
  if (!m) statements.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

/** Ranked queries read this many times top_k from the FTS table before filtering by inbox and time. */
const RANK_OVERFETCH = 4;

/** Above this many matching messages a term counts as common and the query is planned. */
export const COMMON_MAIL_TERM = 2000;

/**
 * BM25 over subject (weighted ×3), participants (×2) and text. All terms must match; if that finds
 * nothing, any term may (ranked by BM25), so long natural-language queries still answer.
 * Planned for frequent words: each term's message count is probed with an early-terminating rowid
 * scan; when every term is common (BM25's IDF is near zero) the newest matches win, subject
 * matches first, read with early termination; OR drops common terms when rarer ones exist.
 * Snippets are cut for the returned page only.
 */
export function searchMessages(db: Database.Database, q: SearchQuery): SearchHit[] {
  const terms = ftsTerms(q.query);
  if (terms.length === 0) return [];
  const args = { inbox: q.inboxId, start: normalizeTs(q.start), end: normalizeTs(q.end), k: q.topK };
  const cache = new Map<string, boolean>();
  const common = (t: string) => {
    let c = cache.get(t);
    if (c === undefined) {
      c = !!prepared(db, 'SELECT rowid FROM mail_fts WHERE mail_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?').get(t, COMMON_MAIL_TERM);
      cache.set(t, c);
    }
    return c;
  };
  const FILTER = `m.inbox_id = @inbox AND (@start IS NULL OR m.created_at >= @start) AND (@end IS NULL OR m.created_at <= @end)`;
  // Ranked on the FTS table alone (a join to mail_messages costs a row lookup per match, 5× the
  // scoring), over-fetched, then filtered by inbox and time for the few rows read; when the filter
  // leaves too few of a full over-fetch, the exact joined query answers.
  const ranked = (match: string): Array<{ rowid: number; score: number }> => {
    const over = q.topK * RANK_OVERFETCH;
    const top = prepared(db, 'SELECT rowid, -bm25(mail_fts, 3.0, 2.0, 1.0) AS score FROM mail_fts WHERE mail_fts MATCH ? ORDER BY bm25(mail_fts, 3.0, 2.0, 1.0) LIMIT ?').all(match, over) as Array<{
      rowid: number;
      score: number;
    }>;
    const where = prepared(db, 'SELECT inbox_id, created_at FROM mail_messages WHERE rowid = ?');
    const kept = top.filter((r) => {
      const m = where.get(r.rowid) as { inbox_id: string; created_at: string } | undefined;
      return !!m && m.inbox_id === args.inbox && (args.start === null || m.created_at >= args.start) && (args.end === null || m.created_at <= args.end);
    });
    if (kept.length >= q.topK || top.length < over) return kept.slice(0, q.topK);
    return prepared(
      db,
      `SELECT m.rowid, -bm25(mail_fts, 3.0, 2.0, 1.0) AS score
         FROM mail_fts JOIN mail_messages m ON m.rowid = mail_fts.rowid
        WHERE mail_fts MATCH @match AND ${FILTER}
        ORDER BY bm25(mail_fts, 3.0, 2.0, 1.0) LIMIT @k`,
    ).all({ ...args, match }) as Array<{ rowid: number; score: number }>;
  };
  const newest = (match: string, k: number) =>
    prepared(db, `SELECT m.rowid FROM mail_fts JOIN mail_messages m ON m.rowid = mail_fts.rowid WHERE mail_fts MATCH @match AND ${FILTER} ORDER BY mail_fts.rowid DESC LIMIT @k`)
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
  if (rows.length === 0 && terms.length > 1) rows = run('OR');
  // Snippets and columns for the page only, cut from the stored text here: FTS5's snippet()
  // re-reads a frequent word's whole doclist for every hit (11 ms each at 100k messages).
  const words = terms.map((t) => `"${(t.slice(1, -1).match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')}"`);
  const cols = prepared(db, 'SELECT id AS message_id, thread_id, subject, created_at, substr(text, 1, ?) AS text FROM mail_messages WHERE rowid = ?');
  return rows.flatMap((r) => {
    const h = cols.get(SNIPPET_TEXT_CHARS, r.rowid) as (Omit<SearchHit, 'score' | 'snippet'> & { text: string }) | undefined;
    if (!h) return [];
    const { text, ...hit } = h;
    return [{ ...hit, score: r.score, snippet: snippetOf(text, hit.subject, words) }];
  });
}

/** How much of a message's text a snippet looks through for the first match. */
const SNIPPET_TEXT_CHARS = 100_000;

/** 16 words around the first match, matches in [brackets]: the subject when it matched (as FTS5's snippet() picked it), else the text. */
function snippetOf(text: string, subject: string, words: string[]): string {
  const subj = subject ? makeSnippet(subject, words, 16, ['[', ']'], ' … ') : '';
  if (subj.includes('[')) return subj;
  return makeSnippet(text, words, 16, ['[', ']'], ' … ') || subject;
}

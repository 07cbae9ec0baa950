import type Database from 'better-sqlite3';
import { openDatabase, type Migration } from '../../kernel/db/open';
import type { JsonObject } from '../../kernel/types';
import { bodyOf, capitalizedPhrases, normName, parseNote, searchableText, type ParsedNote } from './parse';
import { folderOf, isNotePath, listVaultFiles, vaultReader, type VaultReader } from './paths';
import { sha256 } from './fsops';
import { makeSnippet } from '../../kernel/snippet';
import { countRows } from '../../kernel/db';
import { nameLookup, type EntityPlace, type NameLookup } from './name-dictionary';

export { makeSnippet };

/** The index DB's own migrations: it is derived data, rebuildable from the vault at any time. */
export const indexMigrations: Migration[] = [
  {
    version: 1,
    name: 'notes, fts, links, aliases, entity occurrences',
    up(db) {
      db.exec(`
        CREATE TABLE notes (
          id          INTEGER PRIMARY KEY,
          path        TEXT NOT NULL UNIQUE,
          folder      TEXT NOT NULL,
          title       TEXT NOT NULL,
          mtime_ms    REAL NOT NULL,
          size        INTEGER NOT NULL,
          hash        TEXT NOT NULL,
          frontmatter TEXT NOT NULL,
          tags        TEXT NOT NULL,
          aliases     TEXT NOT NULL
        );
        CREATE INDEX notes_folder ON notes(folder);
        CREATE VIRTUAL TABLE notes_fts USING fts5(
          title, aliases, tags, body,
          tokenize = 'unicode61 remove_diacritics 2'
        );
        CREATE TABLE links (note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE, target TEXT NOT NULL);
        CREATE INDEX links_target ON links(target);
        CREATE INDEX links_note ON links(note_id);
        CREATE TABLE aliases (note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE, name TEXT NOT NULL, display TEXT NOT NULL);
        CREATE INDEX aliases_name ON aliases(name);
        CREATE INDEX aliases_note ON aliases(note_id);
        -- kind: 'title' | 'alias' (the note IS the entity), 'link' (wikilink), 'mention' (named in the text)
        CREATE TABLE entities (note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE, name TEXT NOT NULL, kind TEXT NOT NULL);
        CREATE INDEX entities_name ON entities(name);
        CREATE INDEX entities_note ON entities(note_id);
      `);
    },
  },
  {
    version: 2,
    name: 'rebuild: contentless FTS (snippets from the note file, for the returned page only)',
    up(db) {
      // The index is derived: drop it and let catch-up rebuild it from the files.
      db.exec(`
        DROP TABLE IF EXISTS notes_fts;
        DELETE FROM entities; DELETE FROM aliases; DELETE FROM links; DELETE FROM notes;
        CREATE VIRTUAL TABLE notes_fts USING fts5(
          title, aliases, tags, body,
          content = '', contentless_delete = 1,
          tokenize = 'unicode61 remove_diacritics 2'
        );
      `);
    },
  },
  {
    version: 3,
    name: 'entities by name and kind (the name dictionary reads title and alias rows of a name)',
    up(db) {
      // A name many notes mention has thousands of 'mention' rows; by name alone, asking whether
      // it is a title or alias read every one of them. (name, kind) serves name-only reads too.
      db.exec(`
        DROP INDEX IF EXISTS entities_name;
        CREATE INDEX entities_name_kind ON entities(name, kind);
      `);
    },
  },
];


/** Above this many matching notes a term counts as common and the query is planned (see VaultIndex.search). */
export const COMMON_TERM_DOCS = 1500;

export interface NoteRow {
  id: number;
  path: string;
  folder: string;
  title: string;
  mtime_ms: number;
  size: number;
  hash: string;
}

export interface SearchHit {
  path: string;
  title: string;
  snippet: string;
  score: number;
}

export type { EntityPlace, NameLookup };

/** Of several notes a link could mean: the one in the linking note's folder, else the shortest path. */
function pickNearest(rows: Array<{ path: string; folder: string }>, from?: string): string | undefined {
  const here = from ? folderOf(from) : undefined;
  return [...rows].sort((a, b) => Number(b.folder === here) - Number(a.folder === here) || a.path.length - b.path.length || a.path.localeCompare(b.path))[0]?.path;
}

/** `foo bar*` / `"swim meet"` → an FTS5 query: quoted terms (no syntax injection), prefixes, phrases. */
export function ftsQuery(query: string, op: 'AND' | 'OR' = 'AND'): string | undefined {
  const parts = ftsParts(query);
  if (!parts.length) return undefined;
  return parts.join(op === 'AND' ? ' ' : ' OR ');
}

/** The FTS5 terms of a query, each quoted (a phrase, a word, or a `"prefix"*`). */
export function ftsParts(query: string): string[] {
  const parts: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (const m of query.matchAll(re)) {
    if (m[1] !== undefined) {
      const words = m[1].match(/[\p{L}\p{N}]+/gu);
      if (words?.length) parts.push(`"${words.join(' ')}"`);
      continue;
    }
    const raw = m[2] ?? ''; // the other side of the alternation: always set when group 1 is not
    const prefix = raw.endsWith('*');
    const words = raw.match(/[\p{L}\p{N}]+/gu);
    if (!words) continue;
    const term = words.length > 1 ? `"${words.join(' ')}"` : `"${words[0]}"`;
    parts.push(prefix && words.length === 1 ? `${term}*` : term);
  }
  return parts;
}

/**
 * The vault index (`<data-dir>/index.db`): one row per note, FTS5 over title/aliases/tags/body,
 * links, aliases and entity occurrences. Everything in it comes from the vault files.
 */
const FOLDER_FILTER = `AND (? = '' OR n.folder = ? OR n.folder LIKE ? || '/%')
                   AND (? = '' OR NOT (n.folder = ? OR n.folder LIKE ? || '/%'))`;

export class VaultIndex {
  readonly db: Database.Database;
  /** The vault folder: snippets are read from the note files (the FTS table keeps no text). */
  root?: string;
  private version = 0;
  /** The name dictionary: look-ups in the index (name-dictionary.ts). */
  private dict?: NameLookup;

  constructor(file: string) {
    this.db = openDatabase(file, { migrations: indexMigrations });
  }

  close(): void {
    this.db.close();
  }

  /**
   * Another connection (the background indexer) changed the index: drop cached derived data.
   * `changed` (the notes it changed, when known) is not needed since the name dictionary is read
   * from the index; callers still say it.
   */
  touch(_changed?: string[]): void {
    this.version++;
  }

  /** Bumped on every change; callers cache derived data against it. */
  get generation(): number {
    return this.version;
  }

  private stmt = (() => {
    const cache = new Map<string, Database.Statement>();
    return (sql: string) => {
      let s = cache.get(sql);
      if (!s) {
        s = this.db.prepare(sql);
        cache.set(sql, s);
      }
      return s;
    };
  })();

  get(rel: string): NoteRow | undefined {
    return this.stmt('SELECT id, path, folder, title, mtime_ms, size, hash FROM notes WHERE path = ?').get(rel) as NoteRow | undefined;
  }

  count(): number {
    return (this.stmt('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
  }

  all(): NoteRow[] {
    return this.stmt('SELECT id, path, folder, title, mtime_ms, size, hash FROM notes').all() as NoteRow[];
  }

  /** Inserts or replaces one note (its FTS row, links, aliases, entity occurrences). */
  upsert(rel: string, text: string, stat: { mtimeMs: number; size: number }, parsed: ParsedNote = parseNote(rel, text), hash = sha256(text)): void {
    const old = this.get(rel);
    if (old) this.removeById(old.id);
    const info = this.stmt(
      'INSERT INTO notes (path, folder, title, mtime_ms, size, hash, frontmatter, tags, aliases) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(rel, folderOf(rel), parsed.title, stat.mtimeMs, stat.size, hash, JSON.stringify(parsed.frontmatter), JSON.stringify(parsed.tags), JSON.stringify(parsed.aliases));
    const id = Number(info.lastInsertRowid);
    this.stmt('INSERT INTO notes_fts (rowid, title, aliases, tags, body) VALUES (?, ?, ?, ?, ?)').run(
      id,
      parsed.title,
      parsed.aliases.join(' ; '),
      parsed.tags.join(' '),
      searchableText(parsed.body),
    );
    const insLink = this.stmt('INSERT INTO links (note_id, target) VALUES (?, ?)');
    for (const l of parsed.links) insLink.run(id, normName(l.slice(l.lastIndexOf('/') + 1).replace(/\.md$/i, '')));
    const insAlias = this.stmt('INSERT INTO aliases (note_id, name, display) VALUES (?, ?, ?)');
    const insEnt = this.stmt('INSERT INTO entities (note_id, name, kind) VALUES (?, ?, ?)');
    const seen = new Set<string>();
    const ent = (name: string, kind: EntityPlace['kind']) => {
      const n = normName(name);
      if (!n || seen.has(n)) return;
      seen.add(n);
      insEnt.run(id, n, kind);
    };
    ent(parsed.title, 'title');
    for (const a of parsed.aliases) {
      insAlias.run(id, normName(a), a);
      ent(a, 'alias');
    }
    for (const l of parsed.links) ent(l.slice(l.lastIndexOf('/') + 1), 'link');
    for (const p of capitalizedPhrases(parsed.title + '\n' + parsed.body)) ent(p, 'mention');
    this.version++;
  }

  private removeById(id: number): void {
    this.stmt('DELETE FROM notes_fts WHERE rowid = ?').run(id);
    this.stmt('DELETE FROM links WHERE note_id = ?').run(id);
    this.stmt('DELETE FROM aliases WHERE note_id = ?').run(id);
    this.stmt('DELETE FROM entities WHERE note_id = ?').run(id);
    this.stmt('DELETE FROM notes WHERE id = ?').run(id);
  }

  remove(rel: string): boolean {
    const old = this.get(rel);
    if (!old) return false;
    this.removeById(old.id);
    this.version++;
    return true;
  }

  /** Removes every note under `folder/` (a deleted folder). */
  removeUnder(folder: string): string[] {
    const rows = this.stmt("SELECT id, path FROM notes WHERE folder = ? OR folder LIKE ? || '/%'").all(folder, folder) as Array<{ id: number; path: string }>;
    for (const r of rows) this.removeById(r.id);
    if (rows.length) this.version++;
    return rows.map((r) => r.path);
  }

  clear(): void {
    this.db.exec("INSERT INTO notes_fts(notes_fts) VALUES('delete-all'); DELETE FROM links; DELETE FROM aliases; DELETE FROM entities; DELETE FROM notes;");
    this.version++;
  }

  /**
   * BM25 search with prefix (`wor*`) and phrase (`"swim meet"`) queries; AND first, OR if AND
   * finds nothing. Planned so frequent words stay fast: each term's note count is probed with an
   * early-terminating rowid scan (never more than COMMON_TERM_DOCS rows). Rare terms rank by exact
   * BM25; in OR queries common terms (near-zero IDF) are dropped when rarer ones exist; a query
   * of common terms only ranks title/alias/tag matches first, then the other matches, newest
   * first, reading only the page it returns. Snippets are computed for the returned page only.
   */
  search(query: string, opts: { limit?: number; folder?: string; excludeFolder?: string; mode?: 'AND' | 'OR'; /** false: no snippets (callers that use paths and titles only). */ snippets?: boolean } = {}): SearchHit[] {
    const limit = Math.max(1, Math.min(opts.limit ?? 10, 100));
    const folder = opts.folder ? opts.folder.replace(/^\/+|\/+$/g, '') : '';
    const exclude = opts.excludeFolder ? opts.excludeFolder.replace(/^\/+|\/+$/g, '') : '';
    const parts = ftsParts(query);
    if (!parts.length) return [];
    const common = new Map<string, boolean>();
    const isCommon = (p: string) => {
      let c = common.get(p);
      if (c === undefined) {
        c = !!this.stmt('SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?').get(p, COMMON_TERM_DOCS);
        common.set(p, c);
      }
      return c;
    };
    for (const op of opts.mode ? [opts.mode] : (['AND', 'OR'] as const)) {
      const rare = parts.filter((p) => !isCommon(p));
      let rows: Array<{ id: number; path: string; title: string; score: number }>;
      if (rare.length && !folder && !exclude) {
        // No folder filter: ranked on the FTS table alone (joining notes for every match costs
        // more than scoring it), then the page's rows looked up.
        const q = op === 'AND' ? parts.join(' ') : rare.join(' OR ');
        const top = this.stmt('SELECT rowid AS id, -bm25(notes_fts, 10.0, 8.0, 3.0, 1.0) AS score FROM notes_fts WHERE notes_fts MATCH ? ORDER BY score DESC LIMIT ?').all(q, limit) as Array<{
          id: number;
          score: number;
        }>;
        const note = this.stmt('SELECT path, title FROM notes WHERE id = ?');
        rows = top.flatMap((r) => {
          const n = note.get(r.id) as { path: string; title: string } | undefined;
          return n ? [{ ...r, ...n }] : [];
        });
      } else if (rare.length) {
        const q = op === 'AND' ? parts.join(' ') : rare.join(' OR ');
        rows = this.stmt(
          `SELECT n.id, n.path, n.title, -bm25(notes_fts, 10.0, 8.0, 3.0, 1.0) AS score
             FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid
            WHERE notes_fts MATCH ? ${FOLDER_FILTER}
            ORDER BY score DESC LIMIT ?`,
        ).all(q, folder, folder, folder, exclude, exclude, exclude, limit) as typeof rows;
      } else {
        const q = op === 'AND' ? parts.join(' ') : parts.join(' OR ');
        const newest = (match: string, n: number) =>
          this.stmt(
            `SELECT n.id, n.path, n.title FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid
              WHERE notes_fts MATCH ? ${FOLDER_FILTER} ORDER BY notes_fts.rowid DESC LIMIT ?`,
          ).all(match, folder, folder, folder, exclude, exclude, exclude, n) as Array<{ id: number; path: string; title: string }>;
        const strong = newest(`{title aliases tags} : (${q})`, limit);
        const seen = new Set(strong.map((r) => r.id));
        const rest = strong.length < limit ? newest(q, limit + strong.length).filter((r) => !seen.has(r.id)) : [];
        rows = [...strong.map((r, i) => ({ ...r, score: 2 - i / 1000 })), ...rest.map((r, i) => ({ ...r, score: 1 - i / 1000 }))].slice(0, limit);
      }
      if (rows.length || parts.length < 2) {
        const read = opts.snippets === false ? undefined : this.reader();
        return rows.map((r) => ({ path: r.path, title: r.title, snippet: read ? this.snippetFor(read, r.path, parts) : '', score: Math.round(r.score * 1000) / 1000 }));
      }
    }
    return [];
  }

  /** A reader for one page of snippets (folders checked once for the page). */
  private reader(): VaultReader | undefined {
    return this.root ? vaultReader(this.root) : undefined;
  }

  private snippetFor(reader: VaultReader | undefined, rel: string, parts: string[], marks: [string, string] = ['**', '**']): string {
    const f = reader?.read(rel);
    if (!f) return '';
    return makeSnippet(searchableText(bodyOf(f.data.toString('utf8'))), parts, 12, marks);
  }

  /**
   * One page of search results for the Vault page: the snippet comes back with \u0002/\u0003 around
   * each match (characters that never occur in notes' text), which `snippetRanges` turns into plain
   * text + ranges — the renderer never parses markup out of it.
   */
  searchPage(query: string, opts: { limit: number; offset: number; folder?: string }): Array<{ path: string; title: string; folder: string; snippet: string; score: number }> {
    const folder = opts.folder ? opts.folder.replace(/^\/+|\/+$/g, '') : '';
    const sql = `SELECT n.path, n.title, n.folder, -bm25(notes_fts, 10.0, 8.0, 3.0, 1.0) AS score
                 FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid
                 WHERE notes_fts MATCH ?
                   AND (? = '' OR n.folder = ? OR n.folder LIKE ? || '/%')
                 ORDER BY score DESC, n.path LIMIT ? OFFSET ?`;
    const count = `SELECT count(*) AS n FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid WHERE notes_fts MATCH ? AND (? = '' OR n.folder = ? OR n.folder LIKE ? || '/%')`;
    for (const op of ['AND', 'OR'] as const) {
      const q = ftsQuery(query, op);
      if (!q) return [];
      // The OR fallback is used only when AND finds nothing at all (not just on a later page).
      if (op === 'AND' && q.includes(' ') && (this.stmt(count).get(q, folder, folder, folder) as { n: number }).n === 0) continue;
      const rows = this.stmt(sql).all(q, folder, folder, folder, opts.limit, opts.offset) as Array<{ path: string; title: string; folder: string; score: number }>;
      // The index keeps no note text: snippets come from the files, for this page only.
      const parts = ftsParts(query);
      const read = this.reader();
      return rows.map((r) => ({ ...r, snippet: this.snippetFor(read, r.path, parts, ['\u0002', '\u0003']), score: Math.round(r.score * 1000) / 1000 }));
    }
    return [];
  }

  /** Notes in `folder` (directly, or `deep` in every subfolder), by path, from `after` on. */
  notesIn(folder: string, opts: { deep: boolean; after?: string; limit: number }): Array<{ path: string; title: string; folder: string; mtime_ms: number }> {
    const where = folder === '' ? (opts.deep ? '1' : "folder = ''") : opts.deep ? "(folder = ? OR folder LIKE ? || '/%')" : 'folder = ?';
    const params: unknown[] = folder === '' ? [] : opts.deep ? [folder, folder] : [folder];
    return this.db
      .prepare<unknown[], { path: string; title: string; folder: string; mtime_ms: number }>(`SELECT path, title, folder, mtime_ms FROM notes WHERE ${where} AND path > ? ORDER BY path LIMIT ?`)
      .all(...params, opts.after ?? '', opts.limit);
  }

  countIn(folder: string, deep: boolean): number {
    const where = folder === '' ? (deep ? '1' : "folder = ''") : deep ? "(folder = ? OR folder LIKE ? || '/%')" : 'folder = ?';
    const params: unknown[] = folder === '' ? [] : deep ? [folder, folder] : [folder];
    return countRows(this.db, `SELECT count(*) AS n FROM notes WHERE ${where}`, ...params);
  }

  /**
   * Where a wikilink leads, the way Obsidian resolves it: a path (`folder/Note`), else a file name
   * anywhere in the vault (the one in the linking note's folder first, then the shortest path),
   * else a note whose title or alias is that name. Undefined when nothing matches.
   */
  resolveLink(target: string, from?: string): string | undefined {
    const t = target.replace(/#.*$/, '').replace(/\|.*$/, '').trim().replace(/^\/+/, '').replace(/\.md$/i, '');
    if (!t) return undefined;
    const esc = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);
    const pick = (rows: Array<{ path: string; folder: string }>) => pickNearest(rows, from);
    const byName = this.stmt("SELECT path, folder FROM notes WHERE path LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\'").all(`${esc(t)}.md`, `%/${esc(t)}.md`) as Array<{ path: string; folder: string }>;
    // LIKE is case-insensitive for ASCII only; keep exact-case or case-folded equal names.
    const lower = t.toLowerCase();
    const named = byName.filter((r) => r.path.toLowerCase() === `${lower}.md` || r.path.toLowerCase().endsWith(`/${lower}.md`));
    if (named.length) return pick(named);
    const n = normName(t.slice(t.lastIndexOf('/') + 1));
    if (!n) return undefined;
    const titled = this.stmt("SELECT n.path, n.folder FROM entities e JOIN notes n ON n.id = e.note_id WHERE e.name = ? AND e.kind IN ('title', 'alias')").all(n) as Array<{ path: string; folder: string }>;
    return pick(titled);
  }

  /** Notes whose wikilinks resolve to `rel` (by file name, or by title/alias when no file has that name). */
  backlinks(rel: string, limit = 200): Array<{ path: string; title: string; folder: string }> {
    const meta = this.noteMeta(rel);
    if (!meta) return [];
    const stemKey = (p: string) => normName(p.slice(p.lastIndexOf('/') + 1).replace(/\.md$/i, ''));
    const names = [...new Set([stemKey(rel), normName(meta.title), ...meta.aliases.map(normName)].filter(Boolean))];
    const rows = this.db
      .prepare(
        `SELECT n.path, n.title, n.folder, group_concat(l.target, char(1)) AS targets FROM links l JOIN notes n ON n.id = l.note_id
         WHERE l.target IN (${names.map(() => '?').join(',')}) AND n.path != ? GROUP BY n.id ORDER BY n.path LIMIT ?`,
      )
      .all(...names, rel, limit * 4) as Array<{ path: string; title: string; folder: string; targets: string }>;
    if (!rows.length) return [];
    // Every note carrying one of these names as its file name (two notes may share a name).
    const sameName = (this.stmt('SELECT path, folder FROM notes').all() as Array<{ path: string; folder: string }>).filter((r) => names.includes(stemKey(r.path)));
    const titled = this.stmt("SELECT n.path, n.folder FROM entities e JOIN notes n ON n.id = e.note_id WHERE e.name = ? AND e.kind IN ('title', 'alias')");
    const out: Array<{ path: string; title: string; folder: string }> = [];
    for (const r of rows) {
      const leadsHere = r.targets.split('\u0001').some((x) => {
        const byFile = sameName.filter((c) => stemKey(c.path) === x);
        const pool = byFile.length ? byFile : (titled.all(x) as Array<{ path: string; folder: string }>);
        return pickNearest(pool, r.path) === rel;
      });
      if (leadsHere) out.push({ path: r.path, title: r.title, folder: r.folder });
      if (out.length >= limit) break;
    }
    return out;
  }

  /** Where a name lives: notes titled/aliased with it, linking to it, or mentioning it. */
  places(name: string, limit = 40): EntityPlace[] {
    const n = normName(name);
    if (!n) return [];
    return this.stmt(
      `SELECT n.path, n.folder, n.title, e.kind FROM entities e JOIN notes n ON n.id = e.note_id
       WHERE e.name = ? ORDER BY CASE e.kind WHEN 'title' THEN 0 WHEN 'alias' THEN 1 WHEN 'link' THEN 2 ELSE 3 END LIMIT ?`,
    ).all(n, limit) as EntityPlace[];
  }

  /**
   * Every title and alias (normalised) → the notes that carry it; used to spot known names in new
   * text, including implicit ones people record as aliases ("my son"). Read from the index when
   * asked (see name-dictionary.ts), so it is always the index as it is.
   */
  nameDictionary(): NameLookup {
    return (this.dict ??= nameLookup(this.stmt, () => this.version));
  }

  folders(): Array<{ folder: string; notes: number }> {
    return this.stmt('SELECT folder, count(*) AS notes FROM notes GROUP BY folder ORDER BY folder').all() as Array<{ folder: string; notes: number }>;
  }

  noteMeta(rel: string): { title: string; frontmatter: JsonObject; tags: string[]; aliases: string[] } | undefined {
    const r = this.stmt('SELECT title, frontmatter, tags, aliases FROM notes WHERE path = ?').get(rel) as
      | { title: string; frontmatter: string; tags: string; aliases: string }
      | undefined;
    if (!r) return undefined;
    return { title: r.title, frontmatter: JSON.parse(r.frontmatter) as JsonObject, tags: JSON.parse(r.tags) as string[], aliases: JSON.parse(r.aliases) as string[] };
  }
}

/**
 * Every note file under `root` as vault-relative posix paths, under the vault rule: hidden
 * folders/files skipped, symlinks kept only when they lead to a visible file inside the vault.
 */
export function listNoteFiles(root: string): string[] {
  return listVaultFiles(root, '', isNotePath);
}

export interface CatchUpReport {
  scanned: number;
  indexed: number;
  unchanged: number;
  removed: number;
  changed: string[];
}

export interface CatchUpProgress {
  done: number;
  total: number;
  /** Paths whose indexed state changed in this batch. */
  changed: string[];
}

/**
 * Brings the index in line with the folder: files whose mtime and size match are skipped
 * without reading; changed ones are re-read and only re-parsed when their hash differs.
 */
export function catchUp(index: VaultIndex, root: string): CatchUpReport {
  const steps = catchUpSteps(index, root);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * catchUp in batches: one short transaction per `batch` files, yielding progress after each, so
 * a caller can report it, let other writers in, and (on the main thread) yield to the event loop.
 */
export function* catchUpSteps(index: VaultIndex, root: string, batch = 250): Generator<CatchUpProgress, CatchUpReport> {
  index.root ??= root;
  const files = listNoteFiles(root);
  const known = new Map(index.all().map((r) => [r.path, r]));
  const report: CatchUpReport = { scanned: files.length, indexed: 0, unchanged: 0, removed: 0, changed: [] };
  const touchMtime = index.db.prepare('UPDATE notes SET mtime_ms = ?, size = ? WHERE id = ?');
  const total = files.length;
  for (let i = 0; i < files.length; i += batch) {
    const changed: string[] = [];
    // Each folder's real path is checked once per batch (see vaultReader).
    const reader = vaultReader(root);
    index.db.transaction(() => {
      for (const rel of files.slice(i, i + batch)) {
        if (!known.has(rel)) {
          // New to the index (every file of a first build): one checked read, its fstat is the stat.
          const f = reader.read(rel);
          if (!f) continue;
          const text = f.data.toString('utf8');
          index.upsert(rel, text, f.stat, undefined, sha256(text));
          report.indexed++;
          changed.push(rel);
          continue;
        }
        const st = reader.stat(rel);
        if (!st) continue;
        const row = known.get(rel);
        known.delete(rel);
        if (row && row.mtime_ms === st.mtimeMs && row.size === st.size) {
          report.unchanged++;
          continue;
        }
        const f = reader.read(rel);
        if (!f) {
          if (row && index.remove(rel)) {
            report.removed++;
            changed.push(rel);
          }
          continue;
        }
        const text = f.data.toString('utf8');
        const hash = sha256(text);
        if (row && row.hash === hash) {
          touchMtime.run(st.mtimeMs, st.size, row.id);
          report.unchanged++;
          continue;
        }
        index.upsert(rel, text, st, undefined, hash);
        report.indexed++;
        changed.push(rel);
      }
    }).immediate();
    report.changed.push(...changed);
    yield { done: Math.min(total, i + batch), total, changed };
  }
  if (known.size) {
    const changed: string[] = [];
    index.db.transaction(() => {
      for (const rel of known.keys()) {
        index.remove(rel);
        report.removed++;
        changed.push(rel);
      }
    }).immediate();
    report.changed.push(...changed);
    yield { done: total, total, changed };
  }
  return report;
}

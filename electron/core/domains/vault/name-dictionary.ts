/**
 * The name dictionary (every title and alias, normalised → the notes that carry it), read from
 * the index itself: `entities` is indexed by name, so a look-up is one indexed read (a few µs), and
 * the answer is the index as it is now. It was a copy in the owner's heap (a list of place objects
 * per name: 56 MB for 100,000 names at 50,000 notes, 0.44 s of CPU to build in one go, then
 * kept up to date note by note). Places come in the order they were written (entity row order),
 * as the copy listed them.
 */
import type Database from 'better-sqlite3';

/** A note that carries a name, and how. */
export interface EntityPlace {
  path: string;
  folder: string;
  title: string;
  kind: 'title' | 'alias' | 'link' | 'mention';
}

/** What callers read: a read-only map of name → places. */
export interface NameLookup {
  get(name: string): EntityPlace[] | undefined;
  has(name: string): boolean;
  /** How many names (a count over the index). */
  readonly size: number;
  [Symbol.iterator](): Iterator<[string, EntityPlace[]]>;
}

const NAMED = `e.kind IN ('title', 'alias')`;

/** Words remembered per index generation (a name's first word: whether any entity starts with it). */
const FIRST_WORDS_MAX = 50_000;

/**
 * `generation`: the index's change counter. `has` first asks whether any entity name starts with
 * the name's first word (one probe of the name index, remembered per word until the index
 * changes): most words of a text start no name, and a text is looked up n-gram by n-gram.
 */
export function nameLookup(stmt: (sql: string) => Database.Statement, generation: () => number): NameLookup {
  let memoOf = -1;
  const firstWords = new Map<string, boolean>();
  const startsSome = (name: string): boolean => {
    if (memoOf !== generation() || firstWords.size >= FIRST_WORDS_MAX) {
      firstWords.clear();
      memoOf = generation();
    }
    const sp = name.indexOf(' ');
    const w = sp < 0 ? name : name.slice(0, sp);
    let yes = firstWords.get(w);
    if (yes === undefined) {
      // Names from w up to w followed by U+FFFF: w itself and every "w …" (a space sorts below it).
      yes = stmt('SELECT 1 FROM entities WHERE name >= ? AND name < ? LIMIT 1').get(w, w + '\uffff') !== undefined;
      firstWords.set(w, yes);
    }
    return yes;
  };
  const places = () => stmt(`SELECT n.path, n.folder, n.title, e.kind FROM entities e JOIN notes n ON n.id = e.note_id WHERE e.name = ? AND ${NAMED} ORDER BY e.rowid`);
  return {
    get(name) {
      const rows = places().all(name) as EntityPlace[];
      return rows.length ? rows : undefined;
    },
    has(name) {
      if (!startsSome(name)) return false;
      return stmt(`SELECT 1 FROM entities e WHERE e.name = ? AND ${NAMED} LIMIT 1`).get(name) !== undefined;
    },
    get size() {
      return (stmt(`SELECT count(DISTINCT e.name) AS n FROM entities e WHERE ${NAMED}`).get() as { n: number }).n;
    },
    *[Symbol.iterator]() {
      const rows = stmt(`SELECT e.name, n.path, n.folder, n.title, e.kind FROM entities e JOIN notes n ON n.id = e.note_id WHERE ${NAMED} ORDER BY e.rowid`).all() as Array<EntityPlace & { name: string }>;
      const byName = new Map<string, EntityPlace[]>();
      for (const { name, ...place } of rows) {
        let list = byName.get(name);
        if (!list) byName.set(name, (list = []));
        list.push(place);
      }
      yield* byName;
    },
  };
}

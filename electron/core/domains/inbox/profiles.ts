/**
 * Folder profiles: a TF-IDF centroid per destination folder, built from the folder's notes
 * (title and tags count double), its path words and its notes' frontmatter tags. Nothing here
 * knows any vault's words: the IDF and the centroids come from the indexed notes, and are
 * rebuilt whenever the index changes (cached against `VaultIndex.generation`).
 *
 * The same term space serves the learning loop (earlier decisions, per-folder prototypes of
 * accepted items), so an item, a folder and an earlier example are compared the same way.
 */
import type { VaultIndex } from '../vault';
import { bodyOf as bodyAfterFrontmatter, splitFrontmatter, vaultReader } from '../vault';
import { searchableText } from '../vault';
import { stem } from './rules';
import { contentWords, isStopword } from './text';
import { PERSON_TITLE } from './person-title';
import { shapeTerms, withoutUrls } from './shapes';
import { cosine, normalize, type Vec } from './vectors';
import { buildCentroidPostings, centroidCosines, topK } from './profile-index';
import { Centroid, type TermTable } from './centroid';
import { countAt, idAt, NoteTermStore, type NoteTerms } from './note-terms';
import { interactiveInflight, whenNoInteractive } from '../../kernel/interactive';
import { createHash } from 'node:crypto';

export { PERSON_TITLE };

export type { Vec };
export { cosine, normalize };
export { Centroid };

/** A folder's vocabulary: the terms of its centroid (read through the centroid, not a copy). */
export interface TermSet {
  has(term: string): boolean;
  readonly size: number;
  [Symbol.iterator](): Iterator<string>;
}

/** cosine(v, the folder's centroid): the number vectors.ts' cosine gives for the centroid as a Map. */
export function folderCosine(v: Vec, f: Pick<FolderProfile, 'centroid'>): number {
  return f.centroid.cosine(v);
}

/** Words of a text as stemmed terms (no numbers, no stopwords, ≥ 3 letters). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of contentWords(text)) {
    const t = termOf(w);
    if (t !== null) out.push(t);
  }
  return out;
}

/** Word → its term, or null when it is not one (remembered: words repeat across notes). */
const termMemo = new Map<string, string | null>();
const TERM_MEMO_MAX = 200_000;

function termOf(w: string): string | null {
  let t = termMemo.get(w);
  if (t !== undefined) return t;
  if (w.length < 3 || /^\d/.test(w)) t = null;
  else {
    const s = stem(w);
    // "needed" → "need": a stopword once stemmed says no more than "need" does.
    t = isStopword(s) ? null : s;
  }
  if (termMemo.size >= TERM_MEMO_MAX) termMemo.clear();
  termMemo.set(w, t);
  return t;
}

/**
 * The words of a folder's own name, without the numbering and dates people put in front
 * ("10 Projects/11 Kitchen Renovation" → "Kitchen Renovation", "2025-03 Trip" → "Trip").
 */
export function folderLabel(folder: string): string {
  const last = folder.split('/').pop() ?? folder;
  return last
    // Leading symbols and emoji ("👥 People", "_archive"), then numbering and dates.
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .replace(/^\s*(?:\d{4}(?:[-_.]\d{1,2}){0,2}|\d+(?:\.\d+)*|[A-Z](?=[.)]))[.)]?[\s._-]+/, '')
    .replace(/[_-]+/g, ' ')
    .trim() || last;
}

const PEOPLE_NAME = /^(people|persons|person|contacts?|who|crm|network|humans)$/i;


export function termFreq(text: string, weight = 1, into: Vec = new Map()): Vec {
  for (const t of terms(withoutUrls(text))) into.set(t, (into.get(t) ?? 0) + weight);
  return into;
}

/** Adds a text's shape pseudo-terms (see shapes.ts) once each. */
function addShapes(into: Vec, body: string, title: string): Vec {
  for (const s of shapeTerms(body, title)) into.set(s, (into.get(s) ?? 0) + 1);
  return into;
}

export interface FolderProfile {
  folder: string;
  notes: number;
  /** TF-IDF centroid, compact (centroid.ts); read it through folderCosine / get / has. */
  centroid: Centroid;
  /** Every term used in the folder's notes, titles and path (for the keyword baseline). */
  vocab: TermSet;
  /**
   * One note per person: the folder's name says so ("people", "40 People", "Contacts"), or most of
   * its notes are people (frontmatter `type: person`, or a personal name as title with aliases).
   */
  people: boolean;
  /** Shape pseudo-term → share of the folder's notes that have it (see shapes.ts). */
  shapes: Map<string, number>;
}

export interface Profiles {
  generation: number;
  docs: number;
  idf(term: string): number;
  /** TF-IDF vector of a text, L2-normalised (sublinear tf). */
  vector(text: string, extra?: string, tags?: string[]): Vec;
  /** A note's vector as the profiles weigh it (title and tags double, shapes), or undefined. */
  noteVector(path: string): Vec | undefined;
  /** The `k` notes most like `v` (cosine over every profiled note, through an inverted index), best first. */
  nearest(v: Vec, k: number): Array<{ path: string; folder: string; sim: number }>;
  folders: FolderProfile[];
  /** cosine(v, folder.centroid) for every folder, in `folders` order (through a term → folders index). */
  centroidCosines(v: Vec): number[];
  /** Folder → profile. */
  byFolder: Map<string, FolderProfile>;
  /** Shape pseudo-term → share of all profiled notes that have it. */
  shapeShare(shape: string): number;
  /** The folder holds one note per person (see FolderProfile.people). */
  isPeople(folder: string): boolean;
  /** Note path → its raw text (title, tags, body) for second-hop entity lookups. */
  text(path: string): string | undefined;
}

const cache = new WeakMap<VaultIndex, Profiles>();
/** Term frequencies per note version (path + content hash): only changed notes are tokenised again. */
const signatures = new WeakMap<VaultIndex, string>();

/** Term ↔ number, shared by every note of one index (it only grows). */
interface TermDict {
  terms: string[];
  ids: Map<string, number>;
}

/**
 * Each note's term frequencies, compactly (note-terms.ts): term numbers in the order the terms
 * were first met (as a Map would keep them) and their counts. A Map per note cost several KB each
 * at 50,000 notes, two typed arrays per note ~0.7 KB beyond their data.
 */
const tfCache = new WeakMap<VaultIndex, { dict: TermDict; store: NoteTermStore }>();

function termNumbers(tf: Vec, dict: TermDict): number[] {
  const ids: number[] = [];
  for (const t of tf.keys()) {
    let id = dict.ids.get(t);
    if (id === undefined) {
      id = dict.terms.length;
      dict.terms.push(t);
      dict.ids.set(t, id);
    }
    ids.push(id);
  }
  return ids;
}

interface Row {
  path: string;
  folder: string;
  hash: string;
  title: string;
  tags: string;
}

/** A note that is about one person: `type: person` (or contact), or a personal name with aliases. */
function personNote(r: { title: string; frontmatter: string; aliases: string }): boolean {
  let fm: Record<string, unknown> = {};
  try {
    fm = JSON.parse(r.frontmatter) as Record<string, unknown>;
  } catch {
    // not JSON: no frontmatter evidence
  }
  const type = typeof fm.type === 'string' ? fm.type : typeof fm.kind === 'string' ? fm.kind : '';
  if (/^(person|people|contact)$/i.test(type)) return true;
  return PERSON_TITLE.test(r.title.trim()) && r.aliases !== '[]';
}

/**
 * A build of the profiles under way: a generator that does a little at a time (it yields every
 * few notes), so it can run in background slices (warmProfiles) or to the end at once
 * (folderProfiles, which also finishes a background build of the same generation).
 */
interface Build {
  generation: number;
  accept: (folder: string) => boolean;
  steps: Generator<void, Profiles, void>;
  /** Where it was finished: 'background' slices or a request that needed it. */
  finishedBy?: 'background' | 'request';
  /** Set once the notes changed since the last build: terms, weights and indexes are built again. */
  full?: boolean;
  ms: number;
}

const building = new WeakMap<VaultIndex, Build>();

/** What the profiles of an index look like now, for status: warm (current), building, or cold. */
export interface ProfilesState {
  /** warm: built for the index as it is; stale: for an older generation (a call checks what changed). */
  state: 'cold' | 'building' | 'warm' | 'stale';
  /** Full builds finished by background slices, and by a request that had to wait for one. */
  background: number;
  request: number;
  /** Time the last build took from start to end (wall clock, slices and pauses included). */
  ms?: number;
}

const stats = new WeakMap<VaultIndex, { background: number; request: number; ms?: number }>();

export function profilesState(index: VaultIndex): ProfilesState {
  const s = stats.get(index) ?? { background: 0, request: 0 };
  const hit = cache.get(index);
  const b = building.get(index);
  const state = hit && hit.generation === index.generation ? 'warm' : b ? 'building' : hit ? 'stale' : 'cold';
  return { state, background: s.background, request: s.request, ...(s.ms !== undefined ? { ms: s.ms } : {}) };
}

/** 1 + log(count), from a table for the small whole counts notes have (the same number each time). */
let logTable: Float64Array | undefined;
function logPlusOne(c: number): number {
  if (c < 256 && c >= 1 && Number.isInteger(c)) {
    if (!logTable) {
      logTable = new Float64Array(256);
      for (let k = 1; k < 256; k++) logTable[k] = 1 + Math.log(k);
    }
    return logTable[c] ?? 0;
  }
  return 1 + Math.log(c);
}

/**
 * Work per step of a build (a background slice runs steps until its time is up): notes read and
 * tokenised, notes weighed into the indexes, index rows per read.
 */
const READS_PER_STEP = 8;
const NOTES_PER_STEP = 32;
const ROWS_PER_STEP = 2000;

/**
 * Profiles of every folder holding notes for which `accept(folder)` holds. Notes directly in
 * a folder belong to that folder only (a parent folder is not the union of its children).
 * Cached against the index's generation; a background build of this generation (warmProfiles)
 * is finished here rather than started again.
 */
export function folderProfiles(index: VaultIndex, accept: (folder: string) => boolean): Profiles {
  const hit = cache.get(index);
  if (hit && hit.generation === index.generation) return hit;
  let b = building.get(index);
  if (!b || b.generation !== index.generation || b.accept !== accept) b = startBuild(index, accept);
  for (;;) {
    const r = b.steps.next();
    if (r.done) return finished(index, b, 'request', r.value);
  }
}

/**
 * Builds the profiles of the index's current generation in slices of at most `sliceMs` of the
 * event loop, stepping aside while a request is in flight (kernel/interactive). Resolves with the
 * profiles, or undefined when `signal` aborts or the build was superseded (the index moved on and
 * someone started a newer one). A request that needs the profiles meanwhile finishes the build.
 */
export async function warmProfiles(index: VaultIndex, accept: (folder: string) => boolean, opts: { signal?: AbortSignal; sliceMs?: number } = {}): Promise<Profiles | undefined> {
  const sliceMs = opts.sliceMs ?? 8;
  const hit = cache.get(index);
  if (hit && hit.generation === index.generation) return hit;
  let b = building.get(index);
  if (!b || b.generation !== index.generation || b.accept !== accept) b = startBuild(index, accept);
  let slice = performance.now();
  for (;;) {
    const r = b.steps.next();
    if (r.done) return finished(index, b, 'background', r.value);
    if (performance.now() - slice > sliceMs || interactiveInflight() > 0) {
      await new Promise<void>((r) => setImmediate(r));
      await whenNoInteractive();
      if (opts.signal?.aborted) return undefined;
      if (building.get(index) !== b) {
        // Finished by a request meanwhile, or superseded by a build of a newer generation.
        const now = cache.get(index);
        return now && now.generation === b.generation ? now : undefined;
      }
      slice = performance.now();
    }
  }
}

function startBuild(index: VaultIndex, accept: (folder: string) => boolean): Build {
  // The generator only runs (and marks the build full) once someone steps it, after `b` exists.
  const b: Build = { generation: index.generation, accept, ms: performance.now(), steps: profileSteps(index, accept, () => (b.full = true)) };
  building.set(index, b);
  return b;
}

function finished(index: VaultIndex, b: Build, by: 'background' | 'request', p: Profiles): Profiles {
  if (building.get(index) === b) building.delete(index);
  const s = stats.get(index) ?? { background: 0, request: 0 };
  if (!b.finishedBy && b.full) {
    s[by]++;
    s.ms = Math.round(performance.now() - b.ms);
    stats.set(index, s);
  }
  b.finishedBy = by;
  // A build of an older generation never replaces a newer one's profiles.
  const now = cache.get(index);
  if (!now || now.generation <= p.generation) cache.set(index, p);
  return p;
}

function* profileSteps(index: VaultIndex, accept: (folder: string) => boolean, markFull: () => void): Generator<void, Profiles, void> {
  const generation = index.generation;
  const hit = cache.get(index);
  // Only the destination folders' notes count (not the inbox): a capture into the inbox leaves the profiles as they are.
  // Read a page at a time (by path): if the index moves meanwhile, these profiles are for an older
  // generation and never served as current; the signature below still says which versions they hold.
  const page = index.db.prepare('SELECT n.path, n.folder, n.hash, n.title, n.tags FROM notes n WHERE n.path > ? ORDER BY n.path LIMIT ?');
  const all: Row[] = [];
  for (let after = ''; ; ) {
    const rows = page.all(after, ROWS_PER_STEP) as Row[];
    for (const r of rows) if (accept(r.folder)) all.push(r);
    if (rows.length < ROWS_PER_STEP) break;
    after = rows[rows.length - 1]?.path ?? '';
    yield;
  }
  // What versions of which notes these are (a digest: the joined hashes were 3 MB at 50,000 notes).
  const sig = createHash('sha256');
  for (const r of all) sig.update(r.hash);
  const signature = sig.digest('hex');
  const prev = signatures.get(index);
  if (hit && prev === signature) return { ...hit, generation };
  markFull();
  yield;
  // The index keeps no note text (index.db v2): bodies are read from the vault files, once per note version.
  const ftsBody = index.db.prepare('SELECT body FROM notes_fts WHERE rowid = (SELECT id FROM notes WHERE path = ?)');
  const noteMeta = index.db.prepare('SELECT frontmatter, aliases FROM notes WHERE path = ?');
  const titleTags = index.db.prepare('SELECT title, tags FROM notes WHERE path = ?');
  const reader = index.root ? vaultReader(index.root) : undefined;
  const bodyOf = (rel: string, frontmatterJson?: string): string => {
    const f = reader?.read(rel, { maxBytes: 2_000_000 });
    // A note indexed with frontmatter fields had valid YAML: its body is what follows the block,
    // without parsing the YAML again. Otherwise (none, empty or invalid) splitFrontmatter decides.
    if (f) return searchableText(frontmatterJson && frontmatterJson !== '{}' ? bodyAfterFrontmatter(f.data.toString('utf8')) : splitFrontmatter(f.data.toString('utf8')).body);
    return (ftsBody.get(rel) as { body: string | null } | undefined)?.body ?? '';
  };
  let cached = tfCache.get(index);
  if (!cached) tfCache.set(index, (cached = { dict: { terms: [], ids: new Map() }, store: new NoteTermStore() }));
  const { dict, store } = cached;
  const notes = store.notes;
  store.compactIfWasteful();
  const perNote: NoteTerms[] = [];
  // Phase 1: each new or changed note's terms (the file is read and tokenised), a few notes a step.
  for (const [i, r] of all.entries()) {
    let c = notes.get(r.path);
    if (!c || c.hash !== r.hash) {
      const meta = (noteMeta.get(r.path) as { frontmatter: string; aliases: string } | undefined) ?? { frontmatter: '{}', aliases: '[]' };
      const body = bodyOf(r.path, meta.frontmatter);
      const tags = (JSON.parse(r.tags) as string[]).join(' ');
      const tf = termFreq(body);
      termFreq(r.title, 2, tf);
      termFreq(tags.replace(/[/_-]/g, ' '), 2, tf);
      addShapes(tf, body, r.title);
      c = store.set(r.path, r.hash, personNote({ title: r.title, ...meta }), termNumbers(tf, dict), [...tf.values()]);
    }
    perNote.push(c);
    if (i % READS_PER_STEP === READS_PER_STEP - 1) yield;
  }
  const present = new Set(all.map((r) => r.path));
  for (const rel of notes.keys()) if (!present.has(rel)) store.delete(rel);
  store.trim();
  // The word → term memo speeds up reading many notes; it is not kept between builds (~6 MB at 50,000 notes).
  termMemo.clear();
  signatures.set(index, signature);
  yield;
  // Phase 2: document frequencies, IDF, then each folder's centroid and the nearest-notes index.
  const D = dict.terms.length;
  const df = new Uint32Array(D);
  // Only what later calls need is kept of the rows.
  // (Title and tags are read when asked; each folder's name is held once.)
  const rows: Array<{ path: string; folder: string }> = [];
  const rowOf = new Map<string, number>();
  const folderNames = new Map<string, string>();
  const folderName = (f: string): string => {
    const had = folderNames.get(f);
    if (had !== undefined) return had;
    folderNames.set(f, f);
    return f;
  };
  for (const [i, c] of perNote.entries()) {
    for (let j = 0; j < c.len; j++) {
      const id = idAt(c, j);
      df[id] = (df[id] ?? 0) + 1;
    }
    const r = all[i];
    if (r) rowOf.set(r.path, rows.push({ path: r.path, folder: folderName(r.folder) }) - 1);
    if (i % (4 * NOTES_PER_STEP) === 4 * NOTES_PER_STEP - 1) yield;
  }
  yield;
  const N = Math.max(rows.length, 1);
  const idfById = new Float64Array(D);
  for (let id = 0; id < D; id++) idfById[id] = Math.log((N + 1) / ((df[id] ?? 0) + 0.5));
  const idfOf = (id: number | undefined) => (id === undefined || id >= D ? Math.log((N + 1) / 0.5) : (idfById[id] ?? 0));
  const idf = (t: string) => idfOf(dict.ids.get(t));
  const weigh = (tf: Vec): Vec => {
    const v: Vec = new Map();
    for (const [t, c] of tf) v.set(t, (1 + Math.log(c)) * idf(t));
    return normalize(v);
  };
  /** A note's weighted, L2-normalised vector as parallel arrays (the same numbers weigh() gives); returns its norm. */
  const weighInto = (c: NoteTerms, w: Float64Array): number => {
    let sq = 0;
    for (let j = 0; j < c.len; j++) {
      const x = logPlusOne(countAt(c, j)) * idfOf(idAt(c, j));
      w[j] = x;
      sq += x * x;
    }
    const n = Math.sqrt(sq);
    if (n > 0) for (let j = 0; j < c.len; j++) w[j] = (w[j] ?? 0) / n;
    return n;
  };
  const weighNote = (c: NoteTerms): Float64Array => {
    const w = new Float64Array(c.len);
    weighInto(c, w);
    return w;
  };
  // The nearest-notes index: for each term, its notes and counts, in one pair of flat arrays
  // (term t's entries are start[t] … start[t+1]; df says how many there are). A weight is worked
  // out when read, by the same operations as weighNote's (so the same number): (1 + log count) ×
  // idf, over the note's norm. Storing the weights took 8 bytes an entry (34 MB at 50,000 notes).
  const start = new Uint32Array(D + 1);
  for (let id = 0; id < D; id++) start[id + 1] = (start[id] ?? 0) + (df[id] ?? 0);
  const total = start[D] ?? 0;
  const postIds = new Uint32Array(total);
  const postCounts = perNote.every((c) => !c.wide) ? new Uint16Array(total) : new Float64Array(total);
  const norms = new Float64Array(rows.length);
  const cursor = start.slice(0, D);
  // Each folder's notes in path order; its sums are built in a dense array over term numbers,
  // adding the same numbers in the same order as a Map per folder did, terms kept in first-met order.
  const byFolder = new Map<string, number[]>();
  for (const [i, r] of rows.entries()) {
    let list = byFolder.get(r.folder);
    if (!list) byFolder.set(r.folder, (list = []));
    list.push(i);
  }
  // This build's term table: the dictionary's first D terms, then folder path words no note uses.
  const extraTerms: string[] = [];
  const extraIds = new Map<string, number>();
  const table: TermTable = {
    idOf: (t) => {
      const id = dict.ids.get(t);
      return id !== undefined && id < D ? id : extraIds.get(t);
    },
    termOf: (id) => (id < D ? dict.terms[id] : extraTerms[id - D]) ?? '',
  };
  const idForCentroid = (t: string): number => {
    let id = table.idOf(t);
    if (id === undefined) {
      id = D + extraTerms.length;
      extraTerms.push(t);
      extraIds.set(t, id);
    }
    return id;
  };
  const acc = new Float64Array(D);
  const met = new Uint8Array(D);
  let w = new Float64Array(64);
  const allShapes = new Map<string, number>();
  const folders: FolderProfile[] = [];
  let done = 0;
  for (const [folder, members] of byFolder) {
    const order: number[] = [];
    const shapes = new Map<string, number>();
    let persons = 0;
    for (const i of members) {
      const c = perNote[i];
      if (!c) continue;
      for (let j = 0; j < c.len; j++) {
        const t = dict.terms[idAt(c, j)] ?? '';
        if (!t.startsWith('~')) continue;
        shapes.set(t, (shapes.get(t) ?? 0) + 1);
        allShapes.set(t, (allShapes.get(t) ?? 0) + 1);
      }
      if (c.person) persons++;
      if (w.length < c.len) w = new Float64Array(c.len * 2);
      norms[i] = weighInto(c, w);
      for (let j = 0; j < c.len; j++) {
        const id = idAt(c, j);
        const x = w[j] ?? 0;
        if (!met[id]) {
          met[id] = 1;
          order.push(id);
        }
        acc[id] = (acc[id] ?? 0) + x;
        const at = cursor[id] ?? 0;
        postIds[at] = i;
        postCounts[at] = countAt(c, j);
        cursor[id] = at + 1;
      }
      if (++done % NOTES_PER_STEP === 0) yield;
    }
    const n = members.length;
    const centroid: Vec = new Map();
    for (const id of order) {
      centroid.set(dict.terms[id] ?? '', (acc[id] ?? 0) / n);
      acc[id] = 0;
      met[id] = 0;
    }
    normalize(centroid);
    // The folder's own path words ("garden", "taxes") are part of what it is about.
    const pathTerms = terms(folder.replace(/[/_&-]/g, ' '));
    for (const t of pathTerms) centroid.set(t, (centroid.get(t) ?? 0) + 0.35 * idf(t) / Math.max(1, Math.log(N + 1)));
    const people = PEOPLE_NAME.test(folderLabel(folder)) || (n >= 3 && persons >= 0.6 * n);
    const shares = new Map([...shapes].map(([t, c]) => [t, c / n] as [string, number]));
    // Kept compact: the Map above is only the build's (the same additions, in the same order).
    normalize(centroid);
    const cIds: number[] = [];
    const cWeights: number[] = [];
    for (const [t, x] of centroid) {
      cIds.push(idForCentroid(t));
      cWeights.push(x);
    }
    const compactCentroid = new Centroid(table, cIds, cWeights);
    // The vocabulary is exactly the centroid's terms (notes' terms, then path words), in the same
    // order: read through the centroid, not a second copy of it.
    const vocab: TermSet = { has: (t) => compactCentroid.has(t), size: compactCentroid.size, [Symbol.iterator]: () => compactCentroid.keys() };
    folders.push({
      folder,
      notes: n,
      centroid: compactCentroid,
      vocab,
      people,
      shapes: shares,
    });
  }
  folders.sort((a, b) => a.folder.localeCompare(b.folder));
  yield;
  // The term → folders index every ranking uses, built here rather than by the first ranking.
  const centroidPostings = buildCentroidPostings(folders, D + extraTerms.length);
  let scratch = new Float64Array(0);
  const seen = new Uint8Array(rows.length);
  const byFolderPeople = new Set(folders.filter((f) => f.people).map((f) => f.folder));
  return {
    generation,
    docs: rows.length,
    idf,
    vector(text, extra, tags) {
      const tf = termFreq(text);
      if (extra) termFreq(extra, 2, tf);
      if (tags?.length) termFreq(tags.join(' ').replace(/[/_-]/g, ' '), 2, tf);
      addShapes(tf, text, extra ?? '');
      return weigh(tf);
    },
    nearest(v, k) {
      // Scores accumulate in a dense array (same additions in the same order as a Map would do),
      // and only the best k are kept: no Map and no sort over every touched note.
      const score = scratch.length >= rows.length ? scratch : (scratch = new Float64Array(rows.length));
      const touched: number[] = [];
      for (const [t, x] of v) {
        const id = dict.ids.get(t);
        if (id === undefined || id >= D) continue;
        const idfT = idfById[id] ?? 0;
        for (let j = start[id] ?? 0, end = start[id + 1] ?? 0; j < end; j++) {
          const i = postIds[j] ?? 0;
          if (!seen[i]) {
            seen[i] = 1;
            touched.push(i);
          }
          const raw = logPlusOne(postCounts[j] ?? 1) * idfT;
          const n = norms[i] ?? 0;
          score[i] = (score[i] ?? 0) + x * (n > 0 ? raw / n : raw);
        }
      }
      const best = topK(touched, score, k);
      for (const i of touched) {
        score[i] = 0;
        seen[i] = 0;
      }
      return best.flatMap(([i, sim]) => {
        const r = rows[i];
        return r ? [{ path: r.path, folder: r.folder, sim }] : [];
      });
    },
    noteVector(rel) {
      const i = rowOf.get(rel);
      const c = i === undefined ? undefined : perNote[i];
      if (!c) return undefined;
      const wv = weighNote(c);
      const v: Vec = new Map();
      for (let j = 0; j < wv.length; j++) v.set(dict.terms[idAt(c, j)] ?? '', wv[j] ?? 0);
      return v;
    },
    folders,
    centroidCosines: (v) => centroidCosines(folders, centroidPostings, table, v),
    byFolder: new Map(folders.map((f) => [f.folder, f])),
    shapeShare: (t) => (allShapes.get(t) ?? 0) / N,
    isPeople: (folder) => byFolderPeople.has(folder) || PEOPLE_NAME.test(folderLabel(folder)),
    // Read when asked (a person's note, a merge candidate): the profiles keep no note text.
    text: (rel) => {
      const r = rows[rowOf.get(rel) ?? -1];
      if (!r) return undefined;
      const m = titleTags.get(rel) as { title: string; tags: string } | undefined;
      return `${m?.title ?? ''}\n${(JSON.parse(m?.tags ?? '[]') as string[]).join(' ')}\n${bodyOf(rel)}`;
    },
  };
}

/** Folders by cosine of `v` with their centroid, best first. */
export function rankFolders(p: Profiles, v: Vec): Array<[string, number]> {
  const cos = p.centroidCosines(v);
  return p.folders.map((f, i) => [f.folder, cos[i] ?? 0] as [string, number]).filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

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
import { buildCentroidPostings, centroidCosines, topK, type Postings } from './profile-index';

export { PERSON_TITLE };

export type { Vec };
export { cosine, normalize };

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
  centroid: Vec;
  /** Every term used in the folder's notes, titles and path (for the keyword baseline). */
  vocab: Set<string>;
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

/**
 * A note's term frequencies, compactly: term numbers (in the order the terms were first met, as
 * a Map would keep them) and their counts. A Map per note cost several KB each at 50,000 notes.
 */
interface NoteTerms {
  hash: string;
  ids: Uint32Array;
  counts: Float64Array;
}

/** Term ↔ number, shared by every note of one index (it only grows). */
interface TermDict {
  terms: string[];
  ids: Map<string, number>;
}

const tfCache = new WeakMap<VaultIndex, { dict: TermDict; notes: Map<string, NoteTerms> }>();

function compact(tf: Vec, hash: string, dict: TermDict): NoteTerms {
  const ids = new Uint32Array(tf.size);
  const counts = new Float64Array(tf.size);
  let j = 0;
  for (const [t, c] of tf) {
    let id = dict.ids.get(t);
    if (id === undefined) {
      id = dict.terms.length;
      dict.terms.push(t);
      dict.ids.set(t, id);
    }
    ids[j] = id;
    counts[j++] = c;
  }
  return { hash, ids, counts };
}

interface Row {
  path: string;
  folder: string;
  hash: string;
  title: string;
  tags: string;
  frontmatter: string;
  aliases: string;
}

/** A note that is about one person: `type: person` (or contact), or a personal name with aliases. */
function personNote(r: Row): boolean {
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
 * Profiles of every folder holding notes for which `accept(folder)` holds. Notes directly in
 * a folder belong to that folder only (a parent folder is not the union of its children).
 */
export function folderProfiles(index: VaultIndex, accept: (folder: string) => boolean): Profiles {
  const hit = cache.get(index);
  if (hit && hit.generation === index.generation) return hit;
  // Only the destination folders' notes count (not the inbox): a capture into the inbox leaves the profiles as they are.
  const all = (index.db.prepare('SELECT n.path, n.folder, n.hash, n.title, n.tags, n.frontmatter, n.aliases FROM notes n ORDER BY n.path').all() as Row[]).filter((r) => accept(r.folder));
  const signature = all.map((r) => r.hash).join('');
  const prev = signatures.get(index);
  if (hit && prev === signature) {
    const same = { ...hit, generation: index.generation };
    cache.set(index, same);
    return same;
  }
  signatures.set(index, signature);
  // The index keeps no note text (index.db v2): bodies are read from the vault files, once per note version.
  const ftsBody = index.db.prepare('SELECT body FROM notes_fts WHERE rowid = (SELECT id FROM notes WHERE path = ?)');
  const reader = index.root ? vaultReader(index.root) : undefined;
  const bodyOf = (rel: string, frontmatterJson?: string): string => {
    const f = reader?.read(rel, { maxBytes: 2_000_000 });
    // A note indexed with frontmatter fields had valid YAML: its body is what follows the block,
    // without parsing the YAML again. Otherwise (none, empty or invalid) splitFrontmatter decides.
    if (f) return searchableText(frontmatterJson && frontmatterJson !== '{}' ? bodyAfterFrontmatter(f.data.toString('utf8')) : splitFrontmatter(f.data.toString('utf8')).body);
    return (ftsBody.get(rel) as { body: string | null } | undefined)?.body ?? '';
  };
  const cached = tfCache.get(index);
  const dict: TermDict = cached?.dict ?? { terms: [], ids: new Map() };
  const old = cached?.notes ?? new Map<string, NoteTerms>();
  const fresh = new Map<string, NoteTerms>();
  const df: number[] = [];
  const perNote: NoteTerms[] = [];
  const persons: boolean[] = [];
  for (const r of all) {
    let c = old.get(r.path);
    if (!c || c.hash !== r.hash) {
      const body = bodyOf(r.path, r.frontmatter);
      const tags = (JSON.parse(r.tags) as string[]).join(' ');
      const tf = termFreq(body);
      termFreq(r.title, 2, tf);
      termFreq(tags.replace(/[/_-]/g, ' '), 2, tf);
      addShapes(tf, body, r.title);
      c = compact(tf, r.hash, dict);
    }
    fresh.set(r.path, c);
    for (const id of c.ids) df[id] = (df[id] ?? 0) + 1;
    perNote.push(c);
    persons.push(personNote(r));
  }
  tfCache.set(index, { dict, notes: fresh });
  // Only what later calls need is kept of the rows (not their frontmatter).
  const rows = all.map((r) => ({ path: r.path, folder: r.folder, title: r.title, tags: r.tags }));
  const rowOf = new Map(rows.map((r, i) => [r.path, i]));
  const N = Math.max(rows.length, 1);
  const idfOf = (id: number | undefined) => Math.log((N + 1) / ((id === undefined ? 0 : (df[id] ?? 0)) + 0.5));
  const idf = (t: string) => idfOf(dict.ids.get(t));
  const weigh = (tf: Vec): Vec => {
    const v: Vec = new Map();
    for (const [t, c] of tf) v.set(t, (1 + Math.log(c)) * idf(t));
    return normalize(v);
  };
  /** A note's weighted, L2-normalised vector as parallel arrays (the same numbers weigh() gives). */
  const weighNote = (c: NoteTerms): Float64Array => {
    const w = new Float64Array(c.ids.length);
    let sq = 0;
    for (let j = 0; j < w.length; j++) {
      const x = (1 + Math.log(c.counts[j] ?? 1)) * idfOf(c.ids[j]);
      w[j] = x;
      sq += x * x;
    }
    const n = Math.sqrt(sq);
    if (n > 0) for (let j = 0; j < w.length; j++) w[j] = (w[j] ?? 0) / n;
    return w;
  };
  const sums = new Map<string, { n: number; persons: number; shapes: Map<string, number>; sum: Vec; vocab: Set<string> }>();
  const allShapes = new Map<string, number>();
  // The nearest-notes index (term → notes and weights) is filled in the same pass as the centroids.
  const postIds: number[][] = [];
  const postWeights: number[][] = [];
  for (const [i, c] of perNote.entries()) {
    const folder = rows[i]?.folder ?? '';
    let s = sums.get(folder);
    if (!s) sums.set(folder, (s = { n: 0, persons: 0, shapes: new Map(), sum: new Map(), vocab: new Set() }));
    s.n++;
    for (const id of c.ids) {
      const t = dict.terms[id] ?? '';
      if (!t.startsWith('~')) continue;
      s.shapes.set(t, (s.shapes.get(t) ?? 0) + 1);
      allShapes.set(t, (allShapes.get(t) ?? 0) + 1);
    }
    if (persons[i]) s.persons++;
    const w = weighNote(c);
    for (let j = 0; j < w.length; j++) {
      const id = c.ids[j] ?? 0;
      const t = dict.terms[id] ?? '';
      const x = w[j] ?? 0;
      s.sum.set(t, (s.sum.get(t) ?? 0) + x);
      s.vocab.add(t);
      (postIds[id] ??= []).push(i);
      (postWeights[id] ??= []).push(x);
    }
  }
  const postings = new Map<string, Postings>();
  for (const [id, ids] of postIds.entries()) if (ids) postings.set(dict.terms[id] ?? '', { ids: Uint32Array.from(ids), weights: Float64Array.from(postWeights[id] ?? []) });
  const folders: FolderProfile[] = [];
  for (const [folder, s] of sums) {
    const centroid: Vec = new Map();
    for (const [t, x] of s.sum) centroid.set(t, x / s.n);
    normalize(centroid);
    // The folder's own path words ("garden", "taxes") are part of what it is about.
    const pathTerms = terms(folder.replace(/[/_&-]/g, ' '));
    for (const t of pathTerms) {
      centroid.set(t, (centroid.get(t) ?? 0) + 0.35 * idf(t) / Math.max(1, Math.log(N + 1)));
      s.vocab.add(t);
    }
    const people = PEOPLE_NAME.test(folderLabel(folder)) || (s.n >= 3 && s.persons >= 0.6 * s.n);
    const shares = new Map([...s.shapes].map(([t, c]) => [t, c / s.n] as [string, number]));
    folders.push({ folder, notes: s.n, centroid: normalize(centroid), vocab: s.vocab, people, shapes: shares });
  }
  folders.sort((a, b) => a.folder.localeCompare(b.folder));
  let scratch = new Float64Array(0);
  const seen = new Uint8Array(rows.length);
  let centroidPostings: Map<string, Postings> | undefined;
  const byFolderPeople = new Set(folders.filter((f) => f.people).map((f) => f.folder));
  const p: Profiles = {
    generation: index.generation,
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
        const list = postings.get(t);
        if (!list) continue;
        const { ids, weights } = list;
        for (let j = 0; j < ids.length; j++) {
          const i = ids[j] ?? 0;
          if (!seen[i]) {
            seen[i] = 1;
            touched.push(i);
          }
          score[i] = (score[i] ?? 0) + x * (weights[j] ?? 0);
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
      const c = fresh.get(rel);
      if (!c) return undefined;
      const w = weighNote(c);
      const v: Vec = new Map();
      for (let j = 0; j < w.length; j++) v.set(dict.terms[c.ids[j] ?? 0] ?? '', w[j] ?? 0);
      return v;
    },
    folders,
    centroidCosines(v) {
      centroidPostings ??= buildCentroidPostings(folders);
      return centroidCosines(folders, centroidPostings, v);
    },
    byFolder: new Map(folders.map((f) => [f.folder, f])),
    shapeShare: (t) => (allShapes.get(t) ?? 0) / N,
    isPeople: (folder) => byFolderPeople.has(folder) || PEOPLE_NAME.test(folderLabel(folder)),
    // Read when asked (a person's note, a merge candidate): the profiles keep no note text.
    text: (rel) => {
      const r = rows[rowOf.get(rel) ?? -1];
      if (!r) return undefined;
      return `${r.title}\n${(JSON.parse(r.tags) as string[]).join(' ')}\n${bodyOf(rel)}`;
    },
  };
  cache.set(index, p);
  return p;
}

/** Folders by cosine of `v` with their centroid, best first. */
export function rankFolders(p: Profiles, v: Vec): Array<[string, number]> {
  const cos = p.centroidCosines(v);
  return p.folders.map((f, i) => [f.folder, cos[i] ?? 0] as [string, number]).filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

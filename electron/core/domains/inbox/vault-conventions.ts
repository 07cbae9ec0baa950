/**
 * What a vault teaches about how it is organised (issue #14). The vault's own notes are hundreds of
 * labelled examples (note → its folder) of this person's conventions; two things are learned from them:
 *
 * 1. **Document types.** Folders whose notes share a shape — the same first title word ("PO 4420 …",
 *    "Facture 2026-012 …"), a word followed by a number, a title that starts with a date of the same
 *    form, a frontmatter `type:` value, a recurring heading or field label ("## Attendees", "Present:") —
 *    attract items of that shape (`doctype` evidence), whatever their other words say. Which shapes
 *    matter is read from the vault (a shape that most of one folder's notes have and few notes
 *    elsewhere), never from word lists.
 * 2. **How much each kind of evidence is worth here** (selfFit; measured, not used by analysis). A
 *    bounded, deterministic sample of the vault's notes (≤ SAMPLE, chosen by a hash of their path) is
 *    treated as pseudo-items: each is left out of its folder's evidence (its folder centroid without it,
 *    nearest notes other than itself, the shape counts without its own) and the folder each kind would
 *    pick is compared with where the person put it. The hit rates are shrunk towards PRIOR_HITS so a
 *    small vault stays near the global figure. Given to the learned ranker as per-vault features, or
 *    used to scale each kind's votes, they did not raise the blind LOSO mean (docs/vault-inbox.md).
 *
 * The shapes are computed once per set of profiles (cached on the profiles' folder list, which a
 * rebuild replaces), from the index rows and at most SHAPE_READS note files.
 */
import type { VaultIndex } from '../vault';
import { splitFrontmatter, vaultReader } from '../vault';
import type { Profiles } from './profiles';
import { isStopword } from './text';
import { interactiveInflight, whenNoInteractive } from '../../kernel/interactive';

/** Notes read for heading/label shapes (the title and frontmatter shapes come from every note's index row). */
const SHAPE_READS = 2000;
/** Notes treated as pseudo-items for the per-vault fit. */
export const SAMPLE = 400;
/** Kinds measured on the vault's own notes (selfFit). */
export const SELF_KINDS = ['profile', 'neighbours', 'doctype'] as const;
export type SelfKind = (typeof SELF_KINDS)[number];
/**
 * The prior hit rate of each kind (about the mean over the twelve labelled vaults of bench/filing-train.ts)
 * weighs PRIOR_N pseudo-items: a vault's own rate is (hits + PRIOR_N × prior) / (n + PRIOR_N), so a small
 * vault stays near the global figure.
 */
export const PRIOR_HITS: Record<SelfKind, number> = { profile: 0.4, neighbours: 0.45, doctype: 0.85 };
const PRIOR_N = 20;

/** What the vault teaches about document types: shape → the folders that hold it. */
export interface VaultConventions {
  /** Shape key → [folder, weight 0–1] for the folders whose notes typically have it. */
  shapeFolders: Map<string, Array<[string, number]>>;
  /** Shape counts per folder and in all, notes per folder, notes counted (for leaving one note out in selfFit). */
  counts: Map<string, Map<string, number>>;
  totals: Map<string, number>;
  sizes: Map<string, number>;
  notes: number;
  /** The first SHAPE_READS notes in sampling order (a hash of the path): their shapes and folders. */
  keysOf: Map<string, Set<string>>;
  order: string[];
  folderOf: Map<string, string>;
}

/** The per-vault fit: per kind, the shrunk hit rate on the vault's own notes, and the raw counts. */
export interface SelfFit {
  hits: Record<SelfKind, { rate: number; hits: number; n: number }>;
  sampled: number;
}

const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();

/** Frontmatter keys that every kind of note may carry: no convention in them. */
const GENERIC_FIELDS = new Set(['title', 'tags', 'tag', 'aliases', 'alias', 'cssclass', 'cssclasses', 'publish', 'processing_hints']);

/** Keys of one title-like line: its first word, that word before a number, or the form of a leading number/date. */
function lineKeys(line: string, out: Set<string>): void {
  const toks = norm(line.trim())
    .replace(/^(?:(?:re|fwd?|tr)\s*:\s*)+/, '')
    .split(/[\s_:\u2013\u2014/]+|\s-\s|(?<=\p{L})-(?=\d)/u)
    .filter(Boolean);
  const t0 = toks[0] ?? '';
  if (/^\d/.test(t0)) {
    const form = t0.replace(/\d/g, '9').replace(/[^9./-]/g, '');
    if (form.length >= 2) out.add(`start:${form}`);
    return;
  }
  const w = t0.replace(/[^\p{L}]/gu, '');
  if (w.length < 2 || isStopword(w)) return;
  out.add(`lead:${w}`);
  if (/^(?:#|n°|no\.?)?\d/.test(toks[1] ?? '') || /^(?:n°|no\.?|#)$/.test(toks[1] ?? '')) out.add(`leadnum:${w}`);
}

/** A field name as a key ("Délai" → "delai", "due_date" → "due date"). */
const fieldKey = (k: string) => norm(k).replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * The shape keys of a note or item: `lead:<word>` (the first word of its title, of an e-mail's Subject
 * line or of a short first line), `leadnum:<word>` (that word before a number: "PO 4420", "Facture n°
 * 2026-014"), `start:<form>` (a title starting with a number or date, digits as 9), `type:<value>`
 * (frontmatter type/kind/category), `field:<name>` (frontmatter keys and "Name: value" lines — a
 * template's fields either way) and `h:<heading>` (its ##–#### headings). Keys say nothing alone; the
 * vault's counts decide which ones mean a folder.
 */
export function docKeys(title: string, frontmatter: Record<string, unknown> | undefined, body: string | undefined): string[] {
  const out = new Set<string>();
  lineKeys(title, out);
  for (const [k, v] of Object.entries(frontmatter ?? {})) {
    const key = fieldKey(k);
    if (!key || GENERIC_FIELDS.has(k.toLowerCase())) continue;
    out.add(`field:${key}`);
    if (['type', 'kind', 'category', 'doctype'].includes(key) && typeof v === 'string' && v.trim() && v.length <= 40) out.add(`type:${norm(v.trim())}`);
  }
  if (body) {
    const lines = body.split(/\r?\n/).slice(0, 80);
    const first = lines.find((l) => l.trim() && !/^#\s/.test(l))?.trim() ?? '';
    if (first.length <= 80 && !/^[\p{L} ]{1,24}\s?:/u.test(first)) lineKeys(first, out);
    let n = 0;
    for (const l of lines) {
      const subject = /^\s*(?:subject|objet|betreff|asunto|oggetto)\s*:\s*(.+)$/i.exec(l);
      if (subject?.[1]) lineKeys(subject[1], out);
      const h = /^#{2,4}\s+(.{2,40})$/.exec(l.trim());
      const f = /^\s*(?:[-*+]\s+)?\**([\p{L}][\p{L}' ]{0,23}?)\**\s?:(?:\s|$)/u.exec(l);
      const key = h?.[1] ? `h:${norm(h[1]).replace(/\d+/g, '9').replace(/[^\p{L}\p{N} ]/gu, '').trim()}` : f?.[1] ? `field:${fieldKey(f[1])}` : '';
      if (key.length > 3 && !out.has(key)) {
        out.add(key);
        if (++n >= 16) break;
      }
    }
  }
  return [...out];
}

/** Deterministic order of notes for sampling (FNV-1a of the path). */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

interface NoteRow {
  path: string;
  folder: string;
  title: string;
  frontmatter: string;
}

/** A shape key owns a folder when a good part of the folder's notes have it and few notes elsewhere do. */
const MIN_SHARE = 0.25;
const MIN_CONCENTRATION = 0.5;
/** A shape more than half the vault's notes have is the vault's, not a folder's. */
const MAX_VAULT_SHARE = 0.5;

/** Shape counts per folder, and folder → [shape, weight] ownership; `without` leaves one note's keys out. */
function ownership(
  counts: Map<string, Map<string, number>>,
  totals: Map<string, number>,
  sizes: Map<string, number>,
  N: number,
  keys: Iterable<string>,
  without?: { folder: string; keys: Set<string> },
): Map<string, number> {
  const votes = new Map<string, number>();
  for (const k of keys) {
    const by = counts.get(k);
    if (!by) continue;
    const less = (f: string) => (without && without.folder === f && without.keys.has(k) ? 1 : 0);
    const total = (totals.get(k) ?? 0) - (without?.keys.has(k) ? 1 : 0);
    const n = N - (without ? 1 : 0);
    if (total < 2 || total > MAX_VAULT_SHARE * n) continue;
    for (const [f, c0] of by) {
      const c = c0 - less(f);
      const size = (sizes.get(f) ?? 0) - (without?.folder === f ? 1 : 0);
      if (c < 2 || size <= 0) continue;
      const share = c / size;
      const conc = c / total;
      // A shape in two notes out of five of a folder, and in no other folder, is as much its convention as any.
      if (share >= MIN_SHARE && conc >= MIN_CONCENTRATION) votes.set(f, (votes.get(f) ?? 0) + conc * Math.min(1, share / 0.4));
    }
  }
  return votes;
}

/** What analysis reads of the conventions (doctypeVotes); the owner keeps only this per profiles build. */
export type DocTypes = Pick<VaultConventions, 'shapeFolders'>;

const cache = new WeakMap<object, DocTypes>();
/** A build under way (stepped by warmConventions, finished by a request that needs it). */
const building = new WeakMap<object, Generator<void, VaultConventions, void>>();

/** The document types of the vault the profiles were built from (cached per profiles build; finishes a background build). */
export function vaultConventions(p: Profiles, index: VaultIndex, accept: (folder: string) => boolean): DocTypes {
  const hit = cache.get(p.folders);
  if (hit) return hit;
  const steps = building.get(p.folders) ?? learnConventions(p, index, accept);
  building.set(p.folders, steps);
  return finish(p, drain(steps));
}

/** Everything learned, counts included, uncached: for selfFit (bench/_conventions.ts), which analysis does not use. */
export function learnVaultConventions(p: Profiles, index: VaultIndex, accept: (folder: string) => boolean): VaultConventions {
  return drain(learnConventions(p, index, accept));
}

function drain(steps: Generator<void, VaultConventions, void>): VaultConventions {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

function finish(p: Profiles, c: VaultConventions): DocTypes {
  building.delete(p.folders);
  const kept: DocTypes = { shapeFolders: c.shapeFolders };
  cache.set(p.folders, kept);
  return kept;
}

/**
 * The same, built in slices of at most `sliceMs` of the event loop, stepping aside while a request is in
 * flight (as warmProfiles does): at 50,000 notes it reads every index row and 2,000 note files (~1 s of CPU).
 * Undefined when `signal` aborts; a request that needs the conventions meanwhile finishes the build.
 */
export async function warmConventions(p: Profiles, index: VaultIndex, accept: (folder: string) => boolean, opts: { signal?: AbortSignal; sliceMs?: number } = {}): Promise<DocTypes | undefined> {
  const sliceMs = opts.sliceMs ?? 8;
  let steps = building.get(p.folders);
  if (!steps) {
    const hit = cache.get(p.folders);
    if (hit) return hit;
    building.set(p.folders, (steps = learnConventions(p, index, accept)));
  }
  let slice = performance.now();
  for (;;) {
    const hit = cache.get(p.folders);
    if (hit) return hit;
    const r = steps.next();
    if (r.done) return finish(p, r.value);
    if (performance.now() - slice > sliceMs || interactiveInflight() > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await whenNoInteractive();
      if (opts.signal?.aborted) return undefined;
      slice = performance.now();
    }
  }
}

/** Notes whose shapes are read per step of a build. */
const ROWS_PER_STEP = 500;
const READS_PER_STEP = 16;

function* learnConventions(p: Profiles, index: VaultIndex, accept: (folder: string) => boolean): Generator<void, VaultConventions, void> {
  const rows = (index.db.prepare('SELECT path, folder, title, frontmatter FROM notes ORDER BY path').all() as NoteRow[]).filter((r) => accept(r.folder) && p.byFolder.has(r.folder));
  yield;
  const order = [...rows].sort((a, b) => hashOf(a.path) - hashOf(b.path) || a.path.localeCompare(b.path));
  const reader = index.root ? vaultReader(index.root) : undefined;
  const readBody = new Set(order.slice(0, SHAPE_READS).map((r) => r.path));
  const keysOf = new Map<string, Set<string>>();
  const counts = new Map<string, Map<string, number>>();
  const totals = new Map<string, number>();
  const sizes = new Map<string, number>();
  // Heading/label keys are counted on the notes read only; title and frontmatter keys on every note.
  let done = 0;
  let reads = 0;
  for (const r of rows) {
    if (++done % ROWS_PER_STEP === 0) yield;
    let fm: Record<string, unknown> = {};
    if (r.frontmatter !== '{}') {
      try {
        fm = JSON.parse(r.frontmatter) as Record<string, unknown>;
      } catch {
        fm = {};
      }
    }
    let body: string | undefined;
    if (readBody.has(r.path)) {
      if (++reads % READS_PER_STEP === 0) yield;
      const f = reader?.read(r.path, { maxBytes: 200_000 });
      body = f ? splitFrontmatter(f.data.toString('utf8')).body : undefined;
    }
    const keys = new Set(docKeys(r.title, fm, body));
    // Kept for the notes selfFit may sample only (a set per note of a 50,000-note vault is not needed); the owner drops it (finish).
    if (readBody.has(r.path)) keysOf.set(r.path, keys);
    sizes.set(r.folder, (sizes.get(r.folder) ?? 0) + 1);
    for (const k of keys) {
      let by = counts.get(k);
      if (!by) counts.set(k, (by = new Map()));
      by.set(r.folder, (by.get(r.folder) ?? 0) + 1);
      totals.set(k, (totals.get(k) ?? 0) + 1);
    }
  }
  const N = rows.length;
  const shapeFolders = new Map<string, Array<[string, number]>>();
  for (const k of counts.keys()) {
    const v = ownership(counts, totals, sizes, N, [k]);
    if (v.size) shapeFolders.set(k, [...v].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  }
  const first = order.slice(0, SHAPE_READS);
  return { shapeFolders, counts, totals, sizes, notes: N, keysOf, order: first.map((r) => r.path), folderOf: new Map(first.map((r) => [r.path, r.folder])) };
}

/**
 * The per-vault fit (measured, not used by analysis — see docs/vault-inbox.md): up to SAMPLE of the
 * vault's notes as pseudo-items, each left out of its folder's evidence, and how often each kind's
 * top folder is where the person put the note. Deterministic (the sample is the first notes by a
 * hash of their path) and bounded (SAMPLE notes, one centroid ranking and one nearest-notes query each).
 */
export function selfFit(p: Profiles, c: VaultConventions, accept: (folder: string) => boolean): SelfFit {
  const { counts, totals, sizes, keysOf } = c;
  const N = c.notes;

  // The per-vault fit: pseudo-items from the vault's own notes, each left out of its folder's evidence.
  const hits: Record<SelfKind, { hits: number; n: number }> = { profile: { hits: 0, n: 0 }, neighbours: { hits: 0, n: 0 }, doctype: { hits: 0, n: 0 } };
  const sample = c.order
    .map((path) => ({ path, folder: c.folderOf.get(path) ?? '' }))
    .filter((r) => (sizes.get(r.folder) ?? 0) >= 2)
    .slice(0, SAMPLE);
  // |mean of a folder's note vectors| ≈ the mean cosine of its notes with its centroid (estimated on the sample).
  const cosOwn = new Map<string, number>();
  const vecs = new Map<string, Map<string, number>>();
  const cosAll = new Map<string, number[]>();
  for (const r of sample) {
    const v = p.noteVector(r.path);
    if (!v) continue;
    vecs.set(r.path, v);
    const cs = p.centroidCosines(v);
    cosAll.set(r.path, cs);
    const i = p.folders.findIndex((f) => f.folder === r.folder);
    cosOwn.set(r.path, cs[i] ?? 0);
  }
  const radius = new Map<string, { s: number; n: number }>();
  for (const r of sample) {
    const c = cosOwn.get(r.path);
    if (c === undefined) continue;
    const x = radius.get(r.folder) ?? { s: 0, n: 0 };
    x.s += c;
    x.n++;
    radius.set(r.folder, x);
  }
  for (const r of sample) {
    const v = vecs.get(r.path);
    const cs = cosAll.get(r.path);
    if (!v || !cs) continue;
    // Profile: the own folder's centroid without this note (see the comment on cosOwn).
    const n = sizes.get(r.folder) ?? 1;
    const rad = radius.get(r.folder);
    const R = rad && rad.n ? Math.max(1e-6, rad.s / rad.n) : 1;
    const c = cosOwn.get(r.path) ?? 0;
    const denom = Math.sqrt(Math.max(1e-9, n * n * R * R - 2 * n * c * R + 1));
    const loo = (n * c * R - 1) / denom;
    let best = '';
    let bestC = 0;
    for (const [i, f] of p.folders.entries()) {
      if (!accept(f.folder)) continue;
      const x = f.folder === r.folder ? loo : (cs[i] ?? 0);
      if (x > bestC) [best, bestC] = [f.folder, x];
    }
    if (best) {
      hits.profile.n++;
      if (best === r.folder) hits.profile.hits++;
    }
    // Nearest notes other than itself, weighted as analysis weighs them.
    const near = p.nearest(v, 9).filter((h) => h.path !== r.path && accept(h.folder) && h.sim >= 0.04);
    const max = near[0]?.sim ?? 0;
    if (max > 0) {
      const by = new Map<string, number>();
      near.slice(0, 8).forEach((h, i) => by.set(h.folder, (by.get(h.folder) ?? 0) + (2 * h.sim) / max / (1 + i * 0.35)));
      hits.neighbours.n++;
      if (topOf(by) === r.folder) hits.neighbours.hits++;
    }
    // Document type, the note's own shapes left out of the counts.
    const keys = keysOf.get(r.path) ?? new Set<string>();
    const dv = ownership(counts, totals, sizes, N, keys, { folder: r.folder, keys });
    if (dv.size) {
      hits.doctype.n++;
      if (topOf(dv) === r.folder) hits.doctype.hits++;
    }
  }
  const rates = Object.fromEntries(
    SELF_KINDS.map((k) => [k, { rate: round3((hits[k].hits + PRIOR_N * PRIOR_HITS[k]) / (hits[k].n + PRIOR_N)), hits: hits[k].hits, n: hits[k].n }]),
  ) as SelfFit['hits'];
  return { hits: rates, sampled: sample.length };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

function topOf(m: Map<string, number>): string {
  let best = '';
  let bw = -Infinity;
  for (const [f, w] of m) if (w > bw || (w === bw && f < best)) [best, bw] = [f, w];
  return best;
}

/** Votes per unit of shape weight, and the most shape weight that counts. */
const DOCTYPE_VOTE = 1.5;
const DOCTYPE_CAP = 6;
/**
 * Document-type votes for an item: each of its shapes that the vault's folders own adds its weight there
 * (concentration × share, full at a share of 0.4); two fully owned shapes make a folder's full vote of 3
 * (like a folder profile's).
 */
export function doctypeVotes(c: DocTypes, keys: string[]): { votes: Map<string, number>; why: string[] } {
  const sum = new Map<string, number>();
  const why: string[] = [];
  for (const k of keys) {
    const fs = c.shapeFolders.get(k);
    if (!fs) continue;
    why.push(k);
    for (const [f, w] of fs) sum.set(f, (sum.get(f) ?? 0) + w);
  }
  return { votes: new Map([...sum].map(([f, w]) => [f, DOCTYPE_VOTE * Math.min(DOCTYPE_CAP, w)])), why };
}


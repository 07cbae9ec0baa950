/**
 * Learning from review. Every decision on an inbox item (accept, edited destination, delete,
 * merge, skip) is a labelled example in the state DB (migration 006). The next analysis finds
 * the nearest earlier decisions by text similarity and compares the item with per-folder
 * prototypes of accepted items, so the same kind of item lands where the person put it last
 * time. Undoing a batch withdraws its examples. Repeated edits toward one folder that share a
 * distinctive word become a suggested rule line for `_brain_config/inbox_rules.md`.
 */
import type Database from 'better-sqlite3';
import path from 'node:path';
import { inboxLearningSchema } from '../../kernel/db/migrations/007_inbox_learning';
import { cosine, normalize, terms, type Profiles, type Vec } from './profiles';
import { ruleMatches, type Rules } from './rules';
import type { InboxAction } from './contract';
import { present } from '../../kernel/errors';
import { countRows } from '../../kernel/db';
import { entityKeys, type EntityMemory } from './entity-memory';

export interface Example {
  id: number;
  batch_id: string | null;
  path: string;
  title: string;
  text: string;
  action: InboxAction;
  /** move: the destination folder; merge: the note merged into. */
  folder: string | null;
  destination: string | null;
  suggested_action: string | null;
  suggested_destination: string | null;
  suggested_confidence: number | null;
  /** The person chose something other than the suggestion. */
  edited: number;
  origin: string;
  created_at: string;
}

export type NewExample = Omit<Example, 'id' | 'created_at' | 'edited'> & { edited?: boolean };

export interface RuleSuggestion {
  id: number;
  keyword: string;
  folder: string;
  line: string;
  support: number;
  status: 'open' | 'accepted' | 'dismissed';
}

/** What analysis needs from earlier decisions, in the profiles' term space. */
export interface Memory {
  examples: Array<{ vec: Vec; tvec: Vec; folder: string; action: InboxAction; title: string; edited: boolean; suggested: string | null }>;
  /** Items the person kept, deleted or merged (what the next like item should become too). */
  decisions: Array<{ vec: Vec; tvec: Vec; action: Exclude<InboxAction, 'move'>; destination: string | null; title: string }>;
  /** Folder → L2-normalised centroid of the items filed there. */
  prototypes: Map<string, { vec: Vec; n: number }>;
  /**
   * What became of earlier suggestions, per suggested folder (and per area above it, keyed
   * "area:<folder>", counting only items that stayed in that area): how often the person accepted it,
   * and where they put the item instead (a folder, or "keep" / "delete" / "merge").
   */
  outcomes: Map<string, Outcome>;
  /** Entity key → the folders items naming it were filed in (see entity-memory.ts). */
  entities: Map<string, EntityMemory>;
}

export interface Outcome {
  accepted: number;
  corrected: Map<string, number>;
}

const folderOfDest = (d: string) => {
  const clean = d.replace(/^\/+/, '');
  if (/\/$/.test(clean) || !path.posix.extname(clean)) return clean.replace(/\/+$/, '');
  const dir = path.posix.dirname(clean);
  return dir === '.' ? '' : dir;
};

const SAFE_FOLDER = /^[\p{L}\p{N}][\p{L}\p{N} _.-]*(\/[\p{L}\p{N} _.-]+)*$/u;

export class ExampleStore {
  private memo?: { key: string; gen: number; memory: Memory };

  constructor(private readonly db: Database.Database, private readonly now: () => number) {
    inboxLearningSchema(db);
  }

  private iso() {
    return new Date(this.now()).toISOString();
  }

  record(xs: NewExample[]): number {
    const ins = this.db.prepare(
      `INSERT INTO inbox_examples (batch_id, path, title, text, action, folder, destination, suggested_action, suggested_destination, suggested_confidence, edited, origin, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const at = this.iso();
    this.db.transaction(() => {
      for (const x of xs) {
        const folder = x.folder ?? (x.action === 'move' && x.destination ? folderOfDest(x.destination) : x.action === 'merge' ? x.destination : null);
        const sFolder = x.suggested_destination && x.suggested_action === 'move' ? folderOfDest(x.suggested_destination) : x.suggested_destination;
        const edited = x.edited ?? (x.action !== x.suggested_action || (x.action === 'move' && folder !== sFolder) || (x.action === 'merge' && x.destination !== x.suggested_destination));
        ins.run(x.batch_id, x.path, x.title.slice(0, 300), x.text.slice(0, 8000), x.action, folder, x.destination, x.suggested_action, x.suggested_destination, x.suggested_confidence, edited ? 1 : 0, x.origin, at);
      }
    })();
    return xs.length;
  }

  /** Undo of a batch: its examples no longer teach anything. */
  withdraw(batchId: string): number {
    return this.db.prepare('UPDATE inbox_examples SET withdrawn_at = ? WHERE batch_id = ? AND withdrawn_at IS NULL').run(this.iso(), batchId).changes;
  }

  list(): Example[] {
    return this.db
      .prepare(
        `SELECT id, batch_id, path, title, text, action, folder, destination, suggested_action, suggested_destination, suggested_confidence, edited, origin, created_at
         FROM inbox_examples WHERE withdrawn_at IS NULL ORDER BY id`,
      )
      .all() as Example[];
  }

  count(): number {
    return countRows(this.db, 'SELECT count(*) AS n FROM inbox_examples WHERE withdrawn_at IS NULL');
  }

  /** The labelled examples as exported (label = folder | "delete" | "merge:<path>" | "keep"), oldest first. */
  exportRows(): Array<Record<string, unknown>> {
    return this.list().map((e) => ({
          path: e.path,
          title: e.title,
          text: e.text,
          label: e.action === 'move' ? e.folder : e.action === 'merge' ? `merge:${e.destination}` : e.action,
          action: e.action,
          destination: e.destination,
          suggested_action: e.suggested_action,
          suggested_destination: e.suggested_destination,
          suggested_confidence: e.suggested_confidence,
          edited: !!e.edited,
          origin: e.origin,
          batch_id: e.batch_id,
          created_at: e.created_at,
    }));
  }

  /** One JSON object per line. */
  jsonl(): string {
    return this.exportRows().map((r) => JSON.stringify(r) + '\n').join('');
  }

  /** Earlier decisions as vectors in the profiles' term space (cached until examples or the index change). */
  memory(p: Profiles): Memory {
    const row = this.db.prepare("SELECT count(*) AS n, coalesce(max(id), 0) AS m, coalesce(max(withdrawn_at), '') AS w FROM inbox_examples").get() as { n: number; m: number; w: string };
    const key = `${row.n}:${row.m}:${row.w}`;
    if (this.memo && this.memo.key === key && this.memo.gen === p.generation) return this.memo.memory;
    const examples: Memory['examples'] = [];
    const decisions: Memory['decisions'] = [];
    const sums = new Map<string, { vec: Vec; n: number }>();
    const outcomes = new Map<string, Outcome>();
    const entities = new Map<string, EntityMemory>();
    for (const e of this.list()) {
      const sf = e.suggested_action === 'move' && e.suggested_destination ? folderOfDest(e.suggested_destination) : null;
      if (sf) {
        const to = e.action === 'move' ? (e.folder ?? '') : e.action;
        const count = (key: string) => {
          const o = outcomes.get(key) ?? { accepted: 0, corrected: new Map<string, number>() };
          if (to === sf) o.accepted++;
          else o.corrected.set(to, (o.corrected.get(to) ?? 0) + 1);
          outcomes.set(key, o);
        };
        count(sf);
        // The areas above the suggested folder ("area:work/projects"), when the item stayed inside them.
        for (let a = path.posix.dirname(sf); a !== '.' && a !== ''; a = path.posix.dirname(a)) if (to === sf || to.startsWith(a + '/')) count(`area:${a}`);
      }
      if (e.action !== 'move' || !e.folder) {
        const vec = e.action !== 'move' ? p.vector(e.text, e.title) : undefined;
        if (vec?.size && e.action !== 'move') decisions.push({ vec, tvec: p.vector(e.title), action: e.action, destination: e.action === 'merge' ? e.destination : null, title: e.title });
        continue;
      }
      const vec = p.vector(e.text, e.title);
      if (!vec.size) continue;
      const sug = e.suggested_action === 'move' && e.suggested_destination ? folderOfDest(e.suggested_destination) : null;
      examples.push({ vec, tvec: p.vector(e.title), folder: e.folder, action: e.action, title: e.title, edited: !!e.edited, suggested: sug && sug !== e.folder ? sug : null });
      for (const [k, shown] of entityKeys(e.title, e.text)) {
        const em = entities.get(k) ?? { display: shown, folders: new Map<string, { n: number; edited: number }>() };
        const x = em.folders.get(e.folder) ?? { n: 0, edited: 0 };
        x.n++;
        if (e.edited) x.edited++;
        em.folders.set(e.folder, x);
        entities.set(k, em);
      }
      let s = sums.get(e.folder);
      if (!s) sums.set(e.folder, (s = { vec: new Map(), n: 0 }));
      s.n++;
      for (const [t, x] of vec) s.vec.set(t, (s.vec.get(t) ?? 0) + x);
    }
    const prototypes = new Map<string, { vec: Vec; n: number }>();
    for (const [f, s] of sums) prototypes.set(f, { vec: normalize(s.vec), n: s.n });
    const memory = { examples, decisions, prototypes, outcomes, entities };
    this.memo = { key, gen: p.generation, memory };
    return memory;
  }

  suggestions(status: RuleSuggestion['status'] | 'all' = 'open'): RuleSuggestion[] {
    const rows = this.db.prepare<unknown[], RuleSuggestion>('SELECT id, keyword, folder, line, support, status FROM inbox_rule_suggestions ORDER BY id').all();
    return status === 'all' ? rows : rows.filter((r) => r.status === status);
  }

  suggestion(id: number): RuleSuggestion | undefined {
    return this.db.prepare<unknown[], RuleSuggestion>('SELECT id, keyword, folder, line, support, status FROM inbox_rule_suggestions WHERE id = ?').get(id);
  }

  decide(id: number, status: 'accepted' | 'dismissed'): void {
    this.db.prepare('UPDATE inbox_rule_suggestions SET status = ?, decided_at = ? WHERE id = ?').run(status, this.iso(), id);
  }

  /**
   * After repeated edits toward one folder: at least `minSupport` items the person moved to the
   * same folder against the suggestion that share a distinctive word (in most of them, rare in
   * the vault, not in items filed elsewhere) → `- anything about <word> → <folder>/`.
   */
  proposeRules(p: Profiles, rules: Rules, minSupport = 3): RuleSuggestion[] {
    const all = this.list().filter((e) => e.action === 'move' && e.folder);
    const edited = all.filter((e) => e.edited);
    const byFolder = new Map<string, Example[]>();
    for (const e of edited) byFolder.set(e.folder!, [...(byFolder.get(e.folder!) ?? []), e]);
    const known = new Set(this.suggestions('all').map((s) => `${s.keyword}\u0000${s.folder}`));
    const ins = this.db.prepare('INSERT OR IGNORE INTO inbox_rule_suggestions (keyword, folder, line, support, status, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (const [folder, xs] of byFolder) {
      // The line goes into a markdown file: only plain folder paths (no newlines, arrows or markup).
      if (xs.length < minSupport) continue;
      if (!SAFE_FOLDER.test(folder)) continue;
      // Surface forms per stem, and in how many of these items each stem appears.
      const support = new Map<string, number>();
      const surface = new Map<string, Map<string, number>>();
      for (const e of xs) {
        const seen = new Set<string>();
        for (const w of (`${e.title} ${e.text}`.toLowerCase().match(/[\p{L}][\p{L}\p{N}'’-]*/gu) ?? [])) {
          const ts = terms(w);
          const [t] = ts;
          if (ts.length !== 1 || t === undefined) continue;
          const m = surface.get(t) ?? new Map<string, number>();
          m.set(w.replace(/['’]s$/, ''), (m.get(w) ?? 0) + 1);
          surface.set(t, m);
          seen.add(t);
        }
        for (const t of seen) support.set(t, (support.get(t) ?? 0) + 1);
      }
      const elsewhere = all.filter((e) => e.folder !== folder);
      const candidates = [...support]
        .filter(([, n]) => n >= minSupport && n >= 0.6 * xs.length)
        .filter(([t]) => elsewhere.filter((e) => terms(`${e.title} ${e.text}`).includes(t)).length <= Math.floor(elsewhere.length * 0.1))
        .map(([t, n]) => ({ t, n, score: n * p.idf(t) }))
        .sort((a, b) => b.score - a.score || a.t.localeCompare(b.t));
      for (const c of candidates) {
        const word = present([...surface.get(c.t)!].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length)[0], 'a surface form of a supported term')[0];
        if (known.has(`${word}\u0000${folder}`)) break;
        const line = `- anything about ${word} → ${folder}/`;
        // Already a rule that sends these items there: nothing to propose.
        const already = rules.rules.some((r) => r.destination.replace(/\/+$/, '').startsWith(folder) && xs.every((e) => ruleMatches(r, { title: e.title, body: e.text, tags: [] }, rules.aliases)));
        if (already) break;
        ins.run(word, folder, line, c.n, 'open', this.iso());
        break;
      }
    }
    return this.suggestions('open');
  }
}

/**
 * Nearest earlier decisions and prototypes → folder votes, with the count of like items per folder.
 * A decision on a nearly identical item counts far more than a loosely similar one (the weight grows
 * faster than the similarity), and a correction (the person chose another folder than suggested)
 * counts 1.5× an acceptance: it is what the analysis did not know. `against` is how strongly
 * corrections of similar items moved away from a folder (the suggestion they rejected).
 */
export function memoryVotes(
  m: Memory,
  v: Vec,
  tv?: Vec,
): { votes: Map<string, number>; like: Map<string, number>; best: Map<string, number>; proto: Array<[string, number]>; against: Map<string, number> } {
  const votes = new Map<string, number>();
  const like = new Map<string, number>();
  const best = new Map<string, number>();
  const against = new Map<string, number>();
  const near = m.examples
    // Short captures share few words: a title like an earlier one's ("Crossword clue" / "Crossword") counts too.
    .map((e) => ({ e, s: Math.max(cosine(v, e.vec), tv && tv.size && e.tvec.size ? 0.7 * cosine(tv, e.tvec) : 0) }))
    .filter((x) => x.s >= 0.2)
    .sort((a, b) => b.s - a.s)
    .slice(0, 7);
  for (const { e, s } of near) {
    // One loosely similar item is no pattern: the weight starts at similarity 0.25 and is full from 0.6.
    const w = s * 3 * Math.min(1, Math.max(0, (s - 0.25) / 0.35)) * (e.edited ? 1.5 : 1);
    votes.set(e.folder, (votes.get(e.folder) ?? 0) + w);
    if (s >= 0.25) like.set(e.folder, (like.get(e.folder) ?? 0) + 1);
    best.set(e.folder, Math.max(best.get(e.folder) ?? 0, s));
    if (e.suggested) against.set(e.suggested, Math.max(against.get(e.suggested) ?? 0, s));
  }
  // A folder's prototype speaks with the weight of how many items make it (full from three).
  const proto = [...m.prototypes]
    .map(([f, p]) => [f, cosine(v, p.vec) * Math.min(1, p.n / 3)] as [string, number])
    .filter(([, s]) => s >= 0.15)
    .sort((a, b) => b[1] - a[1]);
  return { votes, like, best, proto, against };
}

/** How like an earlier item `v` is (its text, or 0.7 × its title for short captures). */
const likeness = (v: Vec, tv: Vec | undefined, e: { vec: Vec; tvec: Vec }) => Math.max(cosine(v, e.vec), tv && tv.size && e.tvec.size ? 0.7 * cosine(tv, e.tvec) : 0);

/**
 * An earlier keep, delete or merge the item is nearly the same as (similarity ≥ 0.5, and closer
 * than any item the person filed in a folder): the person decided this kind of item already.
 */
export function likeDecision(m: Memory, v: Vec, tv?: Vec): { action: Exclude<InboxAction, 'move'>; destination: string | null; title: string; sim: number } | undefined {
  let best: { d: Memory['decisions'][number]; s: number } | undefined;
  for (const d of m.decisions) {
    const s = likeness(v, tv, d);
    if (s >= 0.5 && (!best || s > best.s)) best = { d, s };
  }
  if (!best) return undefined;
  const filed = Math.max(0, ...m.examples.map((e) => likeness(v, tv, e)));
  if (filed >= best.s - 0.05) return undefined;
  return { action: best.d.action, destination: best.d.destination, title: best.d.title, sim: best.s };
}

/**
 * What became of earlier suggestions, applied to the next one (not through the words of the
 * items, so it carries over to items unlike any earlier one). Suggestions for folder A were
 * accepted `a` times and moved to folder B `c_B` times: the votes of A are shared out as the
 * person's outcomes say — A keeps (a + 2) / (a + C + 2) of them, B gains c_B / (a + C + 2) (two
 * imagined acceptances: the analysis is usually right, and one correction is not yet a habit).
 * Three corrections A → B with no acceptance put B first even when nothing else votes for it.
 * `factor` scales the confidence of the chosen folder by how often suggestions for it were
 * accepted (a Beta(1,1) estimate against the 0.85 the confidence scale assumes; 1 until there
 * are two outcomes).
 */
export function learntAdjustment(m: Memory, ranked: Array<[string, number]>): { ranked: Array<[string, number]>; factor: number; swapped?: { from: string; to: string; n: number } } {
  const first = ranked[0];
  if (!first) return { ranked, factor: 1 };
  const [top, va] = first;
  let out = ranked;
  let swapped: { from: string; to: string; n: number } | undefined;
  // The folder's own outcomes, else those of the nearest area above it (a weaker prior: four
  // imagined acceptances, since they were suggestions for sibling folders).
  let o = m.outcomes.get(top);
  let prior = 2;
  for (let a = path.posix.dirname(top); (!o || !o.corrected.size) && a !== '.' && a !== ''; a = path.posix.dirname(a)) {
    o = m.outcomes.get(`area:${a}`);
    prior = 4;
  }
  if (o && o.corrected.size) {
    const C = [...o.corrected.values()].reduce((x, y) => x + y, 0);
    // In an area, suggestions of the folder the person moves things to and accepted there say nothing for its siblings.
    const accepted = prior === 2 ? o.accepted : Math.max(0, o.accepted - [...o.corrected.keys()].reduce((x, f) => x + (m.outcomes.get(f)?.accepted ?? 0), 0));
    const tot = accepted + C + prior;
    const by = new Map(ranked);
    by.set(top, (va * (accepted + prior)) / tot);
    for (const [f, c] of o.corrected) {
      // Keep, delete and merge outcomes lower the folder; they name no folder to move the votes to.
      if (f === 'keep' || f === 'delete' || f === 'merge' || !f || f === top) continue;
      by.set(f, (by.get(f) ?? 0) + (va * c) / tot);
    }
    out = [...by].sort((a, b) => b[1] - a[1] || (a[0] === top ? -1 : b[0] === top ? 1 : a[0].localeCompare(b[0])));
    // Outcomes move an item only to where the person moved such items: a folder nobody moved
    // anything to does not win because the suggested one was discounted (that only lowers confidence).
    if (out[0] && out[0][0] !== top && !o.corrected.has(out[0][0])) out = [[top, by.get(top) ?? 0], ...out.filter(([f]) => f !== top)];
    const lead = out[0]?.[0] ?? top;
    if (lead !== top) swapped = { from: top, to: lead, n: o.corrected.get(lead) ?? 0 };
  }
  const chosen = m.outcomes.get(out[0]?.[0] ?? top);
  const n = chosen ? chosen.accepted + [...chosen.corrected.values()].reduce((a, b) => a + b, 0) : 0;
  const factor = chosen && n >= 2 ? Math.min(1, (chosen.accepted + 1) / (n + 2) / 0.85) : 1;
  return { ranked: out, factor, swapped };
}

/**
 * inbox_analyze: for each inbox item, extract entities, resolve them through the vault index
 * (titles, aliases, people notes, entity occurrences, BM25 neighbours), apply the rules, detect
 * near-duplicates and junk, and vote a folder weighted by evidence. Reads only what it needs and
 * modifies nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Nlp } from '../nlp';
import type { VaultApi, EntityPlace } from '../vault';
import { parseNote, normName, fileStem, freePath } from '../vault';
import type { AnalysisItem, ProcessingHints } from './contract';
import { extractEntities, type FoundEntity } from './entities';
import { ruleMatches, type Rule, type Rules } from './rules';
import { clip, containment, contentWords, plain, shingles, slugify } from './text';

export const INBOX_FOLDER = 'inbox';

export interface AnalyzeContext {
  vault: Pick<VaultApi, 'root' | 'index' | 'resolve'>;
  nlp?: Nlp;
  rules: Rules;
  now: number;
  /** Destinations already suggested in this run (so two items never get the same file name). */
  taken?: Set<string>;
}

/** Internal: the features behind a suggestion (used by the calibration bench). */
export interface AnalysisDetail {
  item: AnalysisItem;
  features: { top: number; second: number; total: number; rule: boolean; hint: boolean };
  /** Folder votes, best first. */
  votes: Array<[string, number]>;
}

const PEOPLE_DIR = /(^|\/)(people|persons|contacts|person|who)$/i;
const JUNK = /^(test|testing|asdf+|qwerty|lorem ipsum.*|x+|todo|tbd|\.+|untitled|new note|hello|hi)$/i;

/** Calibrated on tests/fixtures/vault-eval (see docs/vault-inbox.md): logistic over vote share and evidence. */
export function confidenceOf(f: AnalysisDetail['features']): number {
  if (f.total <= 0) return 0.15;
  const share = f.top / f.total;
  const margin = (f.top - f.second) / Math.max(f.top, 1e-9);
  const z = 2.2 * share + 1.6 * margin + 0.55 * Math.log1p(f.top) + (f.rule ? 1.4 : 0) + (f.hint ? 1.2 : 0) - 3.4;
  return Math.round(Math.min(0.98, 1 / (1 + Math.exp(-z))) * 100) / 100;
}

function hintsOf(fm: Record<string, unknown>): ProcessingHints {
  const h = fm.processing_hints;
  return h && typeof h === 'object' && !Array.isArray(h) ? (h as ProcessingHints) : {};
}

function itemDate(fm: Record<string, unknown>, rel: string, now: number): string {
  for (const k of ['date', 'created', 'created_at']) {
    const v = fm[k];
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) return v.slice(0, 10);
  }
  const m = /(\d{4}-\d{2}-\d{2})/.exec(fileStem(rel));
  return m ? m[1] : new Date(now).toISOString().slice(0, 10);
}

/** `{date}-{title-slug}` and friends → a vault path; folder templates get `<slug>.md` appended. */
export function renderDestination(template: string, vars: { title: string; date: string }): string {
  let out = template
    .replace(/\{date\}/g, vars.date)
    .replace(/\{year\}/g, vars.date.slice(0, 4))
    .replace(/\{month\}/g, vars.date.slice(5, 7))
    .replace(/\{title-slug\}|\{slug\}/g, slugify(vars.title))
    .replace(/\{title\}/g, vars.title.replace(/[\\/:*?"<>|]/g, '-'))
    .replace(/^\/+/, '');
  if (!/\.md$/i.test(out)) out = `${out.replace(/\/+$/, '')}/${slugify(vars.title)}.md`;
  return out;
}

const folderOfTemplate = (t: string) => {
  const clean = t.replace(/^\/+/, '');
  if (!/\.md$/i.test(clean)) return clean.replace(/\/+$/, '').replace(/\/?\{[^}]+\}.*$/, '');
  const dir = path.posix.dirname(clean);
  return dir === '.' ? '' : dir.replace(/\/?\{[^}]+\}.*$/, '');
};

/** Folders items may be filed into: not the inbox itself, not config/template folders (`_brain_config`, `_templates`). */
export const isDestination = (folder: string) => !!folder && folder !== INBOX_FOLDER && !folder.startsWith(INBOX_FOLDER + '/') && !folder.startsWith('_');

class Votes {
  readonly by = new Map<string, number>();
  add(folder: string, w: number) {
    if (!folder || w <= 0 || !isDestination(folder)) return;
    // One-note-per-person folders say who an item is about, rarely where it belongs.
    if (PEOPLE_DIR.test(folder)) w *= 0.2;
    this.by.set(folder, (this.by.get(folder) ?? 0) + w);
  }
  ranked(): Array<[string, number]> {
    return [...this.by].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  }
}

function entityVotes(places: EntityPlace[], self: string, weak: boolean): Map<string, number> {
  const per = new Map<string, number>();
  const inc = (f: string, w: number, cap: number) => per.set(f, Math.min(cap, (per.get(f) ?? 0) + w));
  for (const p of places) {
    if (p.path === self || !isDestination(p.folder)) continue;
    const people = PEOPLE_DIR.test(p.folder);
    if (p.kind === 'title' || p.kind === 'alias') inc(p.folder, people ? 1 : 3, 4);
    else inc(p.folder, p.kind === 'link' ? 0.8 : 1, 3);
  }
  // Each entity brings at most 4 points, spread over the folders it lives in.
  const total = [...per.values()].reduce((a, b) => a + b, 0);
  const scale = (total > 4 ? 4 / total : 1) * (weak ? 0.5 : 1);
  for (const [f, w] of per) per.set(f, w * scale);
  return per;
}

export async function analyzeOne(rel: string, text: string, ctx: AnalyzeContext): Promise<AnalysisDetail> {
  const { index } = ctx.vault;
  const note = parseNote(rel, text);
  const hints = hintsOf(note.frontmatter);
  const body = plain(note.body);
  const title = note.title;
  const summary = clip(body.startsWith(title) ? body.slice(title.length).trim() : body, 80);
  const rulesMatched: string[] = [];
  const votes = new Votes();
  const reasons: string[] = [];
  const base = (over: Partial<AnalysisItem>): AnalysisItem => ({
    path: rel,
    title: clip(title, 80),
    summary,
    entities: [],
    entity_locations: {},
    suggested_action: 'keep',
    destination: null,
    confidence: 0.2,
    reasoning: '',
    rules_matched: [],
    ...over,
  });

  // Empty and junk notes.
  const words = body.split(/\s+/).filter(Boolean);
  if (!words.length || (words.length <= 3 && JUNK.test(body.replace(/[^\p{L}\p{N} ]/gu, '').trim()))) {
    return {
      item: base({ suggested_action: 'delete', confidence: words.length ? 0.85 : 0.95, reasoning: words.length ? 'Placeholder text only' : 'Empty note' }),
      features: { top: 0, second: 0, total: 0, rule: false, hint: false },
      votes: [],
    };
  }

  // Entities and where they live.
  const entities: FoundEntity[] = await extractEntities(`${title}\n${note.body}`, {
    dict: index.nameDictionary(),
    aliases: ctx.rules.aliases,
    nlp: ctx.nlp,
    hints: hints.entities,
    tags: [],
    exclude: new Set([normName(title), ...note.aliases.map(normName)]),
  });
  // The item's own title is in the dictionary too; numbers are not entities.
  const own = normName(title);
  const entitiesShown = entities.filter((e) => normName(e.name) !== own && !/^[\d\s.,:/-]+$/.test(e.name));
  entities.splice(0, entities.length, ...entitiesShown);
  const locations: Record<string, string[]> = {};
  let resolved = 0;
  for (const e of entities.slice(0, 8)) {
    const places = index.places(e.name, 60);
    if (!places.length) continue;
    const per = entityVotes(places, rel, e.source === 'topic' || e.source === 'capitalized');
    if (!per.size) continue;
    resolved++;
    const ranked = [...per].sort((a, b) => b[1] * (PEOPLE_DIR.test(b[0]) ? 0.2 : 1) - a[1] * (PEOPLE_DIR.test(a[0]) ? 0.2 : 1));
    for (const [f, w] of ranked) votes.add(f, w);
    if (Object.keys(locations).length < 3) locations[e.name] = ranked.slice(0, 2).map(([f]) => f);
  }
  if (resolved) {
    const names = Object.keys(locations).slice(0, 3);
    if (names.length) reasons.push(`${names.join(', ')} → ${[...new Set(names.map((n) => locations[n][0]))].join(', ')}`);
  }

  // BM25 neighbours: where similar notes live (and candidates for duplicates).
  const freq = new Map<string, number>();
  for (const w of contentWords(body)) freq.set(w, (freq.get(w) ?? 0) + 1);
  const top = [...new Set([...contentWords(title), ...[...freq].sort((a, b) => b[1] - a[1]).map(([w]) => w)])].slice(0, 10);
  const hits = top.length ? index.search(top.join(' '), { limit: 10, mode: 'OR' }).filter((h) => h.path !== rel) : [];
  const neighbours = hits.filter((h) => !h.path.startsWith(INBOX_FOLDER + '/'));
  const maxScore = neighbours[0]?.score ?? 1;
  neighbours.slice(0, 8).forEach((h, i) => votes.add(path.posix.dirname(h.path) === '.' ? '' : path.posix.dirname(h.path), (2 * h.score) / maxScore / (1 + i * 0.35)));
  if (neighbours.length) reasons.push(`similar: ${neighbours[0].path}`);

  // Near-duplicates among the closest notes.
  const mine = shingles(body);
  for (const h of hits.slice(0, 5)) {
    let other: string;
    try {
      other = fs.readFileSync(ctx.vault.resolve(h.path), 'utf8');
    } catch {
      continue;
    }
    const theirs = shingles(plain(parseNote(h.path, other).body));
    const c = containment(mine, theirs);
    if (mine.size >= 3 && c >= 0.9 && containment(theirs, mine) >= 0.9) {
      // Two copies in the inbox: keep the first, delete the later one.
      if (h.path.startsWith(INBOX_FOLDER + '/') && h.path > rel) continue;
      return {
        item: base({ suggested_action: 'delete', destination: h.path, confidence: 0.93, reasoning: `Duplicate of ${h.path}` }),
        features: { top: 0, second: 0, total: 0, rule: false, hint: false },
        votes: [],
      };
    }
    // An update of an existing note (it repeats most of that note) or a fragment of it: merge.
    const overlap = Math.max(c, theirs.size >= 3 ? containment(theirs, mine) : 0);
    if (mine.size >= 3 && overlap >= 0.6 && !h.path.startsWith(INBOX_FOLDER + '/')) {
      return {
        item: base({
          suggested_action: 'merge',
          destination: h.path,
          confidence: Math.round(Math.min(0.93, 0.55 + 0.4 * overlap) * 100) / 100,
          reasoning: `${Math.round(overlap * 100)}% overlap with ${h.path}; merge`,
        }),
        features: { top: 0, second: 0, total: 0, rule: false, hint: false },
        votes: [],
      };
    }
  }

  // Rules (strong) and the folder-structure descriptions (weak).
  let ruleDest: { rule: Rule; folder: string } | undefined;
  const subject = { title, body: note.body, tags: note.tags };
  for (const rule of ctx.rules.rules) {
    if (!ruleMatches(rule, subject, ctx.rules.aliases)) continue;
    rulesMatched.push(rule.name);
    const f = folderOfTemplate(rule.destination);
    votes.add(f, 6);
    ruleDest ??= { rule, folder: f };
  }
  if (rulesMatched.length) reasons.unshift(`rule ${rulesMatched.map((r) => `'${clip(r, 40)}'`).join(', ')}`);
  const itemWords = new Set(contentWords(`${title} ${body}`));
  for (const [folder, desc] of ctx.rules.folders) {
    const overlap = contentWords(desc).filter((w) => itemWords.has(w)).length;
    if (overlap) votes.add(folder, Math.min(1.5, overlap * 0.6));
  }
  let hint = false;
  if (hints.category) {
    const c = hints.category.replace(/^\/+|\/+$/g, '');
    votes.add(c, 5);
    hint = true;
    reasons.unshift(`hint ${c}`);
  }

  const ranked = votes.ranked();
  const total = ranked.reduce((a, [, w]) => a + w, 0);
  const features = { top: ranked[0]?.[1] ?? 0, second: ranked[1]?.[1] ?? 0, total, rule: !!ruleDest && ruleDest.folder === ranked[0]?.[0], hint };
  const shownEntities = entities.slice(0, 4).map((e) => e.name);
  if (!ranked.length) {
    return {
      item: base({ entities: shownEntities, entity_locations: locations, confidence: 0.15, reasoning: 'No rule, entity or similar note places it' }),
      features,
      votes: ranked,
    };
  }
  const folder = ranked[0][0];
  const vars = { title, date: itemDate(note.frontmatter, rel, ctx.now) };
  let dest = ruleDest && ruleDest.folder === folder ? renderDestination(ruleDest.rule.destination, vars) : `${folder}/${slugify(title)}.md`;
  const taken = ctx.taken ?? new Set<string>();
  try {
    dest = path.posix.relative(
      ctx.vault.root.split(path.sep).join('/'),
      freePath(path.join(ctx.vault.root, dest), (p) => taken.has(p) || fs.existsSync(p)).split(path.sep).join('/'),
    );
  } catch {
    // Keep the plain destination; execute resolves collisions again.
  }
  taken.add(path.join(ctx.vault.root, dest));
  const confidence = confidenceOf(features);
  return {
    item: base({
      entities: shownEntities,
      entity_locations: locations,
      suggested_action: 'move',
      destination: dest,
      confidence,
      reasoning: clip(reasons.join('; ') || `votes for ${folder}`, 140),
      rules_matched: rulesMatched,
    }),
    features,
    votes: ranked.slice(0, 5),
  };
}

/** Normalised key of a folder name (for comparisons in the bench and UI). */
export const folderKey = (f: string) => normName(f.replace(/\//g, ' '));

/**
 * inbox_analyze: for each inbox item, gather evidence of where it belongs — the person's rules
 * and hints, their earlier decisions, entities resolved to notes (and a person's note to the
 * projects it names), BM25 neighbours re-ranked by TF-IDF similarity, per-folder TF-IDF
 * profiles — vote a folder weighted by evidence, and state a confidence built from the kinds
 * and amounts of evidence and the margins between candidates. Detects duplicates (delete) and
 * updates of existing notes (merge). Reads only what it needs and modifies nothing.
 *
 * `keep` means "nowhere to put it": an item with any evidence gets `move` with the best folder
 * and an honest confidence; the rules' threshold only marks items for review.
 */
import fs from 'node:fs';
import path from 'node:path';
import { walkTree } from '../../kernel/fs';
import type { Nlp } from '../nlp';
import type { VaultApi, EntityPlace } from '../vault';
import { parseNote, normName, fileStem, freePath } from '../vault';
import type { AnalysisItem, ProcessingHints } from './contract';
import { extractEntities, knownNames, type FoundEntity } from './entities';
import { partialMention, ruleMatches, type Rule, type Rules } from './rules';
import { clip, containment, contentWords, plain, shingles, slugify } from './text';
import { cosine, folderCosine, folderLabel, folderProfiles, PERSON_TITLE, rankFolders, terms, type Profiles, type TermSet } from './profiles';
import { learntAdjustment, likeDecision, memoryVotes, type Memory } from './learn';
import { entityKeys, entityMemoryVotes } from './entity-memory';
import { docKeys, doctypeVotes, vaultConventions } from './vault-conventions';
import {
  calibrate,
  candidateFeatures,
  earlyAction,
  HAND_THRESHOLDS,
  rankCandidates,
  STRONG_KINDS,
  type ActionFeatures,
  type FilingWeights,
  type FolderMeta,
  type KindVotes,
} from './filing-model';

export const INBOX_FOLDER = 'inbox';

export interface AnalyzeContext {
  vault: Pick<VaultApi, 'root' | 'index' | 'resolve'>;
  nlp?: Nlp;
  rules: Rules;
  now: number;
  /** Destinations already suggested in this run (so two items never get the same file name). */
  taken?: Set<string>;
  /** Earlier decisions (learning from review), in the profiles' term space. */
  memory?: (p: Profiles) => Memory;
  /** Learned weights (models/filing-weights.json); the hand values without them. */
  weights?: FilingWeights;
  /** Return the features the weights are learned from (bench/filing-train.ts). */
  trace?: boolean;
}

/** What the filing model sees of one item (for training; see filing-model.ts). */
export interface FilingTrace {
  kinds: KindVotes[];
  /** Folder → fraction of its votes discounted by corrections away from it. */
  penalty: Array<[string, number]>;
  action: ActionFeatures;
  /** Some evidence places it at all (a rule, hint, decision, entity, person, or more than faint overlap). */
  placed: boolean;
  /** Candidate folder → notes in it and whether it is a people folder. */
  folders: Record<string, FolderMeta>;
}

/** The kinds of evidence that place an item in a folder. */
export type EvidenceKind = 'rule' | 'hint' | 'examples' | 'named' | 'entity' | 'person' | 'link' | 'neighbours' | 'profile' | 'structure' | 'shape' | 'doctype';

/**
 * How far one kind of evidence is trusted on its own when it points fully at one folder with a
 * full amount. Priors about the kinds (a rule the person wrote or their own earlier decision is
 * stronger than shared words), not constants fitted to a fixture. The weak kinds (neighbours,
 * profile, structure) together stay below 0.8 (1 − 0.55·0.6·0.8 = 0.74): a confidence of 0.8 or
 * more needs a rule, a hint, an earlier decision or a resolved entity agreeing with them.
 */
export const RELIABILITY: Record<EvidenceKind, number> = {
  rule: 0.75,
  hint: 0.8,
  examples: 0.8,
  named: 0.7,
  entity: 0.55,
  person: 0.55,
  link: 0.3,
  neighbours: 0.45,
  profile: 0.4,
  structure: 0.2,
  shape: 0.2,
  doctype: 0.2,
};

/** One kind of evidence for an item: its votes per folder and how much of it there is (0–1). */
export interface Evidence {
  kind: EvidenceKind;
  votes: Map<string, number>;
  amount: number;
}

export interface EvidenceRow {
  kind: EvidenceKind;
  /** Share of this kind's votes for the chosen folder. */
  share: number;
  amount: number;
  /** reliability × amount × share. */
  strength: number;
  /** The folder this kind prefers. */
  top: string;
}

/** Internal: the evidence behind a suggestion (used by the bench and the calibration tests). */
export interface AnalysisDetail {
  item: AnalysisItem;
  evidence: EvidenceRow[];
  /** Folder votes, best first. */
  votes: Array<[string, number]>;
  /** With `trace`: the features the filing model is learned from. */
  trace?: FilingTrace;
  /**
   * A move's destination before it is made free of existing files and of the run's other
   * suggestions (see placeItem); item.destination is that free path once placed.
   */
  planned?: string;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
/** Evidence for a parent or child folder half-supports the chosen one. */
const related = (a: string, b: string) => (a === b ? 1 : a.startsWith(b + '/') || b.startsWith(a + '/') ? 0.5 : 0);

/**
 * Confidence that `chosen` is right: each kind of evidence is a witness worth reliability ×
 * amount × its share for the chosen folder, combined as independent witnesses (noisy-OR); a
 * kind that prefers another folder lowers it in proportion to how much it prefers it (less so
 * when the person's own rule or hint backs the chosen folder). No evidence → 0. Capped at 0.97.
 */
export function confidenceOf(evidence: Evidence[], chosen: string): { confidence: number; rows: EvidenceRow[] } {
  let miss = 1;
  let doubt = 1;
  const rows: EvidenceRow[] = [];
  // The person's explicit instructions (their rule, their hint) outrank inferred disagreement.
  let explicit = 0;
  for (const e of evidence) {
    if (e.kind !== 'rule' && e.kind !== 'hint') continue;
    const total = [...e.votes.values()].reduce((a, b) => a + Math.max(0, b), 0);
    const forChosen = [...e.votes].reduce((a, [f, w]) => a + Math.max(0, w) * (f === chosen ? 1 : 0), 0);
    if (total > 0) explicit = Math.max(explicit, RELIABILITY[e.kind] * Math.min(1, e.amount) * (forChosen / total));
  }
  for (const e of evidence) {
    const total = [...e.votes.values()].reduce((a, b) => a + Math.max(0, b), 0);
    const amount = Math.max(0, Math.min(1, e.amount));
    if (total <= 0 || amount <= 0) continue;
    let forChosen = 0;
    let top = '';
    let topW = 0;
    for (const [f, w] of e.votes) {
      forChosen += Math.max(0, w) * related(f, chosen);
      if (w > topW) [top, topW] = [f, w];
    }
    const share = Math.min(1, forChosen / total);
    const strength = RELIABILITY[e.kind] * amount * share;
    miss *= 1 - strength;
    if (related(top, chosen) < 1) doubt *= 1 - 0.8 * RELIABILITY[e.kind] * amount * Math.max(0, topW / total - share) * (1 - explicit);
    rows.push({ kind: e.kind, share: round2(share), amount: round2(amount), strength: round2(strength), top });
  }
  return { confidence: round2(Math.min(0.97, (1 - miss) * doubt)), rows };
}

/** Below this confidence for its best folder an item is kept ("nowhere to put it"): a move that sure is a guess. */
export const KEEP_BELOW = 0.06;

const JUNK = /^(test|testing|asdf+|qwerty|lorem ipsum.*|x+|todo|tbd|\.+|untitled|new note|hello|hi)$/i;
/** "add to my X notes", "append this to …", "update …": the person asks for a merge. */
const MERGE_ASK =
  /\b(add(?:ing)? (?:this |these |it |that )?to (?:my |the |our )?|append (?:this |it )?to (?:my |the )?|update (?:to |for |on )?(?:my |the |our )|update to |(?:an )?addition to (?:my |the )?|more (?:for|on) (?:my |the )|goes (?:in|into|with) (?:my |the ))/i;
/** A title that announces more of something: "More sowing", "Recall update", "Re: kiln log", "Tile game, part 2". */
const TITLE_MORE =
  /^(?:more|update|updates|re|addendum|follow[- ]?up|also)\b[:\s-]*(.+)$|^(.+?)[\s:,-]+(?:update|updates|addendum|continued|cont(?:\.|d)?|part \d+|follow[- ]?up|again)$|^(.+?)\s+[-–—:]\s+(?:\d+\s+)?(?:more|further|extra|additional|another)\b/i;
/** The name part of a title ("The Maltings — outline app, 43 homes" → "The Maltings"). */
const titleLead = (t: string) => t.split(/\s+[-–—:]\s+|:\s/)[0]?.trim() ?? t;

/** How sure a merge into an asked-for note is: how fully the ask names it, and how much the item reads like it. */
const mergeConfidence = (named: number, cos: number, fromTitle: boolean) =>
  // A title that only sounds like more of something ("Mould again") is a weaker ask than "add this to …".
  Math.min(fromTitle ? 0.75 : 0.9, 0.5 + 0.15 * named + 0.25 * Math.min(1, cos / 0.25));

/**
 * The note an item asks to be merged into: the words after the ask (or around the title's "update")
 * name a note's title (most of its title words), or a folder ("my rota notes" → the note of that folder
 * most like the item). Title asks also need the item to be like the note (cosine ≥ 0.2).
 */
function mergeTarget(title: string, body: string, itemVec: Map<string, number>, p: Profiles, ctx: AnalyzeContext): { path: string; title: string; confidence: number } | undefined {
  const asks: Array<{ words: string[]; raw: string; fromTitle: boolean }> = [];
  const GENERIC = /^(note|list|page|file|doc|document|thing)s?$/;
  const ask = MERGE_ASK.exec(`${title}. ${body}`);
  if (ask) {
    const after = `${title}. ${body}`.slice(ask.index + ask[0].length, ask.index + ask[0].length + 80).split(/[.!?\n;:(]/)[0] ?? '';
    // "Add to my notes": the notes on what the item is about, named at the start of its title or first line.
    const generic = GENERIC.test(contentWords(after)[0] ?? '');
    const lead = [titleLead(title), titleLead(body.split('\n')[0] ?? '')].find((x) => x && terms(x).length > 0 && terms(x).length <= 4);
    if (generic && lead) asks.push({ words: terms(lead), raw: lead, fromTitle: false });
    else asks.push({ words: terms(after).filter((w) => !GENERIC.test(w)), raw: after, fromTitle: false });
  }
  const tm = TITLE_MORE.exec(title.trim());
  const tmWords = tm ? (tm[1] ?? tm[2] ?? tm[3] ?? '') : '';
  if (tm) asks.push({ words: terms(tmWords), raw: tmWords, fromTitle: true });
  const { index } = ctx.vault;
  for (const { words, raw, fromTitle } of asks) {
    if (!words.length) continue;
    const want = [...new Set(words)];
    const sim = (rel: string) => cosine(itemVec, p.noteVector(rel) ?? p.vector(p.text(rel) ?? ''));
    // The words as written and as stems ("the results" finds a note titled "Results").
    const query = [...new Set([...want, ...contentWords(raw).filter((w) => !GENERIC.test(w))])].join(' ');
    const cands = index
      .search(query, { limit: 10, mode: 'OR', excludeFolder: INBOX_FOLDER, snippets: false })
      .map((h) => {
        // The note's whole title, or its name part ("Shenandoah — alto notes" is named "Shenandoah").
        const score = (t: string) => {
          const tw = new Set(terms(t));
          return want.filter((w) => tw.has(w)).length / Math.max(want.length, tw.size, 1);
        };
        return { h, score: Math.max(score(h.title), score(titleLead(h.title))), cos: sim(h.path) };
      })
      .filter((x) => x.score >= 0.5 && (!fromTitle || x.cos >= 0.2))
      .sort((a, b) => b.score + 0.5 * b.cos - (a.score + 0.5 * a.cos));
    const best = cands[0];
    // The ask names the note (its whole title): confident when the item also reads like that note.
    if (best && best.score >= 1) return { path: best.h.path, title: best.h.title, confidence: mergeConfidence(best.score, best.cos, fromTitle) };
    // "My rota notes": a folder named by the ask → its note most like the item.
    if (!fromTitle) {
      const folder = p.folders.find((f) => {
        const last = terms(folderLabel(f.folder));
        return last.length > 0 && last.every((t) => want.includes(t));
      });
      if (folder) {
        const inIt = index.notesIn(folder.folder, { deep: false, limit: 200 }).map((n) => ({ ...n, cos: sim(n.path) })).sort((a, b) => b.cos - a.cos)[0];
        if (inIt && inIt.cos >= 0.15 && (!best || inIt.cos > best.cos)) return { path: inIt.path, title: inIt.title, confidence: 0.6 };
      }
    }
    if (best) return { path: best.h.path, title: best.h.title, confidence: mergeConfidence(best.score, best.cos, fromTitle) };
  }
  return titledAfterNote(title, body, ctx);
}

/**
 * A note named by the lead of the item's title ("Prêt travaux - offre" → the note "Prêt travaux"):
 * an item that may add to it (how much it reads like it, for the learned threshold).
 */
function leadNote(title: string, itemVec: Map<string, number>, p: Profiles, index: AnalyzeContext['vault']['index']): ActionFeatures['lead'] {
  const lead = titleLead(title);
  if (!lead || lead === title.trim() || terms(lead).length === 0) return null;
  const want = normName(lead);
  const hits = index
    .search(lead, { limit: 10, mode: 'AND', excludeFolder: INBOX_FOLDER, snippets: false })
    .filter((h) => isDestination(folderOfPath(h.path)) && !p.isPeople(folderOfPath(h.path)) && (normName(h.title) === want || normName(titleLead(h.title)) === want));
  if (hits.length !== 1 || !hits[0]) return null;
  return { path: hits[0].path, title: hits[0].title, cos: round2(cosine(itemVec, p.noteVector(hits[0].path) ?? new Map())) };
}

/** A title about how to reach or know someone ("Baptiste new number", "Priya bday"). */
const CONTACT_TITLE = /\b(bday|birthday|number|address|phone|mobile|e-?mail|contact|details)\b/i;
/** A phone number or an e-mail address. */
const CONTACT_DETAIL = /[\w.+-]+@[\w-]+\.[\w.]+|(?:^|\s)\+?\d[\d .-]{7,14}\d(?:\s|$)/;

/**
 * The note of a person the item's title starts with ("Baptiste new number" → people/Baptiste Roux.md):
 * their whole name or a first name only one person note has; `about`: the item says how to reach or
 * know them (a number, an e-mail, a birthday…).
 */
function personNote(title: string, body: string, itemVec: Map<string, number>, p: Profiles, index: AnalyzeContext['vault']['index']): ActionFeatures['person'] {
  const first = /^\p{Lu}[\p{L}'’-]+/u.exec(title.trim())?.[0];
  if (!first) return null;
  const key = normName(first);
  const people = p.folders.filter((f) => f.people && isDestination(f.folder));
  const matches = people.flatMap((f) => index.notesIn(f.folder, { deep: false, limit: 2000 })).filter((n) => normName(n.title).split(' ')[0] === key);
  if (matches.length !== 1 || !matches[0]) return null;
  return { path: matches[0].path, title: matches[0].title, about: CONTACT_TITLE.test(title) || (body.split(/\s+/).length <= 40 && CONTACT_DETAIL.test(body)), cos: round2(cosine(itemVec, p.noteVector(matches[0].path) ?? new Map())) };
}

/** Words that name a running collection ("CPD log", "Seed list 2026"), not what it collects. */
const COLLECTION = /^(log|list|tracker|notes|record|register|diary|tally|bank|index)$/;
/** A title's name words: lowercase, numbers and collection words dropped, a plural 's' dropped. */
const nameWords = (t: string) => [...new Set(normName(t).split(' ').filter((w) => w && !/^(?:19|20)\d\d$/.test(w) && !COLLECTION.test(w)).map((w) => (w.length > 2 ? w.replace(/s$/, '') : w)))];
/** The title names a running collection: a collection word, a year or a plural. */
const collectionTitle = (t: string) => normName(t).split(' ').some((w) => COLLECTION.test(w) || /^(?:19|20)\d\d$/.test(w) || (w.length > 2 && /[^s]s$/.test(w)));

/**
 * A short capture titled by the name of a note (its title, less a collection word, a year or a
 * plural: "cpd" → "CPD log", "seeds" → "Seed list 2026", "PB!!" → "PBs") is more for that note.
 */
function titledAfterNote(title: string, body: string, ctx: AnalyzeContext): { path: string; title: string; confidence: number } | undefined {
  if (body.split(/\s+/).filter(Boolean).length > 100) return undefined;
  const want = nameWords(title);
  if (!want.length || want.length > 3) return undefined;
  const hits = ctx.vault.index
    .search(want.map((w) => `${w}*`).join(' '), { limit: 10, mode: 'OR', excludeFolder: INBOX_FOLDER, snippets: false })
    .filter((h) => isDestination(folderOfPath(h.path)) && collectionTitle(h.title))
    .filter((h) => {
      const have = nameWords(h.title);
      return have.length === want.length && want.every((w) => have.includes(w));
    });
  // One note of that name, or it is ambiguous.
  if (hits.length !== 1 || !hits[0]) return undefined;
  return { path: hits[0].path, title: hits[0].title, confidence: 0.6 };
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
  return m?.[1] ?? new Date(now).toISOString().slice(0, 10);
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

function entityVotes(places: EntityPlace[], self: string, weak: boolean, isPeople: (f: string) => boolean): Map<string, number> {
  const per = new Map<string, number>();
  const inc = (f: string, w: number, cap: number) => per.set(f, Math.min(cap, (per.get(f) ?? 0) + w));
  for (const p of places) {
    if (p.path === self || !isDestination(p.folder)) continue;
    const people = isPeople(p.folder);
    if (p.kind === 'title' || p.kind === 'alias') inc(p.folder, people ? 1 : 3, 4);
    else inc(p.folder, p.kind === 'link' ? 0.8 : 1, 3);
  }
  // Each entity brings at most 4 points, spread over the folders it lives in.
  const total = [...per.values()].reduce((a, b) => a + b, 0);
  const scale = (total > 4 ? 4 / total : 1) * (weak ? 0.5 : 1);
  for (const [f, w] of per) per.set(f, w * scale);
  return per;
}

/** Votes per kind of evidence, and the amount of each kind (0–1). */
class Collector {
  constructor(private readonly isPeople: (folder: string) => boolean) {}
  readonly kinds = new Map<EvidenceKind, Evidence>();
  add(kind: EvidenceKind, folder: string, w: number) {
    if (!folder || !(w > 0) || !isDestination(folder)) return;
    // One-note-per-person folders say who an item is about, rarely where it belongs (unless the item is about a person).
    if (this.isPeople(folder) && kind !== 'person') w *= 0.2;
    const e = this.kinds.get(kind) ?? { kind, votes: new Map<string, number>(), amount: 0 };
    e.votes.set(folder, (e.votes.get(folder) ?? 0) + w);
    this.kinds.set(kind, e);
  }
  amount(kind: EvidenceKind, a: number) {
    const e = this.kinds.get(kind);
    if (e) e.amount = Math.max(e.amount, Math.min(1, a));
  }
  has(kind: EvidenceKind) {
    return !!this.kinds.get(kind)?.votes.size;
  }
  /**
   * Names point at an area's hub notes as often as at the notes where items about them go: the
   * votes of `kinds` for a folder with subfolders are shared among it and its subfolders by how
   * much the item is like each one's notes.
   */
  spreadOverAreas(kinds: EvidenceKind[], p: Profiles, v: Map<string, number>) {
    for (const kind of kinds) {
      const e = this.kinds.get(kind);
      if (!e) continue;
      const out = new Map<string, number>();
      for (const [f, w] of e.votes) {
        const kids = p.folders.filter((x) => x.folder.startsWith(f + '/') && isDestination(x.folder) && !x.people);
        const own = p.byFolder.get(f);
        if (!kids.length || !own) {
          out.set(f, (out.get(f) ?? 0) + w);
          continue;
        }
        const sims: Array<[string, number]> = [[f, folderCosine(v, own)], ...kids.map((k) => [k.folder, folderCosine(v, k)] as [string, number])];
        const sum = sims.reduce((a, [, c]) => a + c, 0);
        if (sum <= 0) out.set(f, (out.get(f) ?? 0) + w);
        else for (const [g, c] of sims) if (c > 0) out.set(g, (out.get(g) ?? 0) + (w * c) / sum);
      }
      e.votes = out;
    }
  }
  /** Folder → fraction of its votes to discount (the person moved similar items away from it). */
  readonly penalty = new Map<string, number>();
  ranked(): Array<[string, number]> {
    const by = new Map<string, number>();
    for (const e of this.kinds.values()) for (const [f, w] of e.votes) by.set(f, (by.get(f) ?? 0) + w);
    for (const [f, x] of this.penalty) if (by.has(f)) by.set(f, by.get(f)! * (1 - x));
    return [...by].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  }
}

/** Words people use when they describe someone. */
const ABOUT_PERSON =
  /\b(met|lives?|living|born|birthday|phone|mobile|email|e-mail|married|partner|wife|husband|friend|colleague|neighbou?r|cousin|aunt|uncle|sister|brother|contact|instagram|linkedin|works? (?:at|as|for|in))\b|@\w|(?:^|\s)\+?\d[\d ]{9,14}\d(?:\s|$)/iu;
const PRONOUN = /\b(she|he|her|his|him|they|their)\b/iu;
/** Words that say the name is a work or a place, not a person ("Atomic Habits", "Lake District"). */
const NOT_PERSON = /\b(book|novel|author|chapter|film|movie|album|episode|series|podcast|read|reading|restaurant|hotel|recipe|trip|itinerary|route|walk)\b/iu;

/**
 * An item that IS a note about a person (its title is a name the vault has no note for, its text
 * describes them) belongs in the people folder, if the vault has one.
 */
function personFolder(title: string, body: string, p: Profiles, index: AnalyzeContext['vault']['index']): string | undefined {
  const t = title.trim();
  if (!PERSON_TITLE.test(t) || NOT_PERSON.test(body)) return undefined;
  const toks = t.split(/\s+/);
  // Described as someone: how they are met or reached, or named again and referred to as he/she/they.
  if (!ABOUT_PERSON.test(body) && !(body.includes(toks[0] ?? '') && PRONOUN.test(body))) return undefined;
  // "Water Bill": the title's words are ordinary words of the item, not a name.
  // (Addresses do not count: "t.rahman@uni.example" is not the word "rahman".)
  const prose = body.replace(/\S+@\S+|\bhttps?:\/\/\S+|\bwww\.\S+/g, ' ');
  if (toks.some((w) => new RegExp(`(^|[^\\p{L}])${w.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\p{L}]|$)`, 'u').test(prose))) return undefined;
  // Every word of it a word the vault already uses ("Dentist Appointment") → not a new person.
  // (A name the vault mentions, "I like the younger candidate, Priti Shah", is still a name: the word must be used in lowercase.)
  const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ordinary = (w: string) => {
    const re = new RegExp(`(^|[^\\p{L}])${esc(w.toLowerCase())}([^\\p{L}]|$)`, 'u');
    return index.search(w, { limit: 8, mode: 'OR', excludeFolder: INBOX_FOLDER, snippets: false }).some((h) => re.test(p.text(h.path) ?? ''));
  };
  if (toks.every((w) => terms(w).every((x) => p.idf(x) < Math.log((p.docs + 1) / 0.5) - 1e-9) && ordinary(w))) return undefined;
  const known = index.nameDictionary().get(normName(t));
  if (known?.some((x) => !x.path.startsWith(INBOX_FOLDER + '/'))) return undefined;
  return p.folders.filter((f) => f.people).sort((a, b) => b.notes - a.notes)[0]?.folder;
}

/**
 * The title as a name: an item saved as "priti-shah.md" whose first line starts "Priti Shah — new
 * councillor" is titled by that name (the file name is the name written in lowercase).
 */
export function nameTitle(title: string, body: string): string {
  if (PERSON_TITLE.test(title.trim())) return title;
  // The first line after a heading that only repeats the title.
  const lines = body.trim().split(/\r?\n/).map((l) => l.replace(/^#+\s*/, '').trim()).filter(Boolean);
  const first = (lines[0] === title.trim() ? lines[1] : lines[0]) ?? '';
  const lead = first.split(/\s+[—–-]\s+|[:(,;]/)[0]?.trim() ?? '';
  // "erin.md" or "Erin" over a first line "Erin Mackie": the title is the name, or its first name.
  return lead && PERSON_TITLE.test(lead) && (slugify(lead) === slugify(title) || slugify(lead).startsWith(slugify(title) + '-')) ? lead : title;
}

/**
 * A close call between the two best folders lowers the confidence: ×1 when the runner-up has
 * less than half the votes of the chosen folder, down to ×0.6 on a tie.
 */
export function marginFactor(ranked: Array<[string, number]>): number {
  const v1 = ranked[0]?.[1] ?? 0;
  const v2 = ranked.find(([f]) => f !== ranked[0]?.[0])?.[1] ?? 0;
  if (v1 <= 0) return 1;
  const m = Math.max(0, Math.min(1, (v1 - v2) / (0.5 * v1)));
  return 0.6 + 0.4 * m;
}

/** The evidence adds up to almost nothing for the best folder (below KEEP_BELOW): nowhere to put the item. */
export function faintPlacement(evidence: Evidence[], ranked: Array<[string, number]>): boolean {
  const first = ranked[0];
  return !first || confidenceOf(evidence, first[0]).confidence * marginFactor(ranked) < KEEP_BELOW;
}

/** How many of the item's words (not its shapes) a folder's notes use. */
function sharedTerms(v: Map<string, number>, vocab: TermSet | undefined): number {
  if (!vocab) return 0;
  let n = 0;
  for (const t of v.keys()) if (!t.startsWith('~') && vocab.has(t)) n++;
  return n;
}

const folderOfPath = (p: string) => (path.posix.dirname(p) === '.' ? '' : path.posix.dirname(p));

export async function analyzeOne(rel: string, text: string, ctx: AnalyzeContext): Promise<AnalysisDetail> {
  return placeItem(await analyzeItem(rel, text, ctx), ctx);
}

/**
 * A move's destination made free: not an existing file, nor a destination already suggested in
 * this run (`ctx.taken`, which it joins). The rest of the analysis does not depend on the run.
 */
export function placeItem(d: AnalysisDetail, ctx: Pick<AnalyzeContext, 'vault' | 'taken'>): AnalysisDetail {
  if (d.planned === undefined) return d;
  let dest = d.planned;
  const taken = ctx.taken ?? new Set<string>();
  try {
    dest = path.posix.relative(
      ctx.vault.root.split(path.sep).join('/'),
      freePath(path.join(ctx.vault.root, dest), (q) => taken.has(q) || fs.existsSync(q)).split(path.sep).join('/'),
    );
  } catch {
    // Keep the plain destination; execute resolves collisions again.
  }
  taken.add(path.join(ctx.vault.root, dest));
  return { ...d, item: { ...d.item, destination: dest } };
}

/** The analysis of one item, its move's destination not yet placed (see placeItem): what a cache may keep. */
export async function analyzeItem(rel: string, text: string, ctx: AnalyzeContext): Promise<AnalysisDetail> {
  const { index } = ctx.vault;
  const note = parseNote(rel, text);
  const hints = hintsOf(note.frontmatter);
  const body = plain(note.body);
  const title = note.title;
  const summary = clip(body.startsWith(title) ? body.slice(title.length).trim() : body, 80);
  const rulesMatched: string[] = [];
  const reasons: string[] = [];
  const base = (over: Partial<AnalysisItem>): AnalysisItem => ({
    path: rel,
    title: clip(title, 80),
    summary,
    entities: [],
    entity_locations: {},
    suggested_action: 'keep',
    destination: null,
    confidence: 0,
    reasoning: '',
    rules_matched: [],
    ...over,
  });
  const done = (item: AnalysisItem): AnalysisDetail => ({ item, evidence: [], votes: [] });

  // Empty and junk notes.
  const words = body.split(/\s+/).filter(Boolean);
  const junk = (t: string) => JUNK.test(t.replace(/[^\p{L}\p{N} ]/gu, '').trim());
  // Placeholder text only (a heading "asdf" over a body "asdf" is still placeholder text).
  const placeholder = words.length <= 6 && (junk(body) || [...new Set(words.map((w) => w.toLowerCase()))].every(junk));
  if (!words.length || placeholder) {
    return done(base({ suggested_action: 'delete', confidence: words.length ? 0.85 : 0.95, reasoning: words.length ? 'Placeholder text only' : 'Empty note' }));
  }
  // Nothing but embeds of files the vault does not hold (a photo whose upload never arrived): nothing to file.
  const embeds = [...note.body.matchAll(/!\[\[([^\]|#\n]+)[^\]\n]*\]\]/g)].map((m) => (m[1] ?? '').trim());
  if (embeds.length && !note.body.replace(/!\[\[[^\]\n]*\]\]/g, '').replace(/^#.*$/gm, '').trim() && embeds.every((e) => !vaultHasFile(ctx.vault.root, e))) {
    return done(base({ suggested_action: 'delete', confidence: 0.7, reasoning: `Only embeds ${clip(embeds.join(', '), 60)}, which the vault does not hold` }));
  }

  const p = folderProfiles(index, isDestination);
  const isPeople = p.isPeople;
  const ev = new Collector(isPeople);
  const itemVec = p.vector(note.body, title, note.tags);

  // Entities and where they live.
  const dict = index.nameDictionary();
  const entities: FoundEntity[] = await extractEntities(`${title}\n${note.body}`, {
    dict,
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
  const hop = new Set<string>();
  for (const e of entities.slice(0, 8)) {
    const places = index.places(e.name, 60);
    if (!places.length) continue;
    const weak = e.source === 'topic' || e.source === 'capitalized';
    const per = entityVotes(places, rel, weak, isPeople);
    if (!per.size) continue;
    const ranked = [...per].sort((a, b) => b[1] * (isPeople(b[0]) ? 0.2 : 1) - a[1] * (isPeople(a[0]) ? 0.2 : 1));
    for (const [f, w] of ranked) ev.add('entity', f, w);
    const named = places.some((x) => (x.kind === 'title' || x.kind === 'alias') && isDestination(x.folder) && !isPeople(x.folder) && x.path !== rel);
    ev.amount('entity', (named ? 1 : 0.6) * (weak ? 0.5 : 1));
    if (Object.keys(locations).length < 3) locations[e.name] = ranked.slice(0, 2).map(([f]) => f);
    // A person's note names the projects and places they belong to: follow it one hop.
    for (const pl of places) {
      if (!(pl.kind === 'title' || pl.kind === 'alias') || !isPeople(pl.folder) || hop.has(pl.path)) continue;
      hop.add(pl.path);
      const personText = p.text(pl.path);
      if (!personText) continue;
      const named2 = knownNames(personText, dict, ctx.rules.aliases, new Set([normName(pl.title)]));
      const folders = new Map<string, number>();
      for (const n of named2.slice(0, 6)) {
        for (const q of dict.get(normName(n.name)) ?? []) {
          if (q.path === pl.path || q.path === rel || !isDestination(q.folder) || isPeople(q.folder)) continue;
          folders.set(q.folder, (folders.get(q.folder) ?? 0) + (n.source === 'topic' ? 0.5 : 1));
        }
      }
      const sum = [...folders.values()].reduce((a, b) => a + b, 0);
      for (const [f, w] of folders) ev.add('link', f, (2 * w) / Math.max(sum, 1));
      // What the person's note is about (their role, their work) is where items about them go.
      const about = rankFolders(p, p.vector(personText)).filter(([f]) => isDestination(f) && !isPeople(f));
      const a1 = about[0]?.[1] ?? 0;
      if (a1 >= 0.05) for (const [f, c] of about.slice(0, 2)) if (c >= 0.6 * a1) ev.add('link', f, 2 * (c / a1) ** 2);
      if (folders.size || a1 >= 0.05) ev.amount('link', weak ? 0.5 : 1);
    }
  }
  const names = Object.keys(locations).slice(0, 3);
  if (names.length) reasons.push(`${names.join(', ')} → ${[...new Set(names.map((n) => locations[n]?.[0]))].join(', ')}`);

  // BM25 neighbours, re-ranked by TF-IDF similarity: where similar notes live (and candidates for duplicates).
  const freq = new Map<string, number>();
  for (const w of contentWords(body)) freq.set(w, (freq.get(w) ?? 0) + 1);
  const top = [...new Set([...contentWords(title), ...[...freq].sort((a, b) => b[1] - a[1]).map(([w]) => w)])].slice(0, 10);
  const hits = top.length ? index.search(top.join(' '), { limit: 12, mode: 'OR', snippets: false }).filter((h) => h.path !== rel) : [];
  // Nearest notes by cosine over every note (shapes included), whatever words the search matched.
  const near = p
    .nearest(itemVec, 12)
    .filter((h) => h.path !== rel && !h.path.startsWith(INBOX_FOLDER + '/') && isDestination(h.folder))
    .filter((h) => h.sim >= 0.04);
  const maxSim = near[0]?.sim ?? 0;
  near.slice(0, 8).forEach((h, i) => ev.add('neighbours', h.folder, (2 * h.sim) / maxSim / (1 + i * 0.35)));
  ev.amount('neighbours', maxSim / 0.3);
  if (near[0]) reasons.push(`similar: ${near[0].path}`);

  // Near-duplicates among the closest notes (decided below, once every kind of evidence is in).
  const mine = shingles(body);
  const overlaps: ActionFeatures['overlaps'] = [];
  for (const h of hits.slice(0, 6)) {
    let other: string;
    try {
      other = fs.readFileSync(ctx.vault.resolve(h.path), 'utf8');
    } catch {
      continue;
    }
    const theirs = shingles(plain(parseNote(h.path, other).body));
    const inbox = h.path.startsWith(INBOX_FOLDER + '/');
    overlaps.push({ path: h.path, c: containment(mine, theirs), rev: containment(theirs, mine), small: theirs.size < 3, inbox, later: inbox && h.path > rel });
  }
  // "Add this to my banana bread notes", "Update to recall training:", a title "Recall update":
  // the person names the note to merge into.
  const target = mergeTarget(title, body, itemVec, p, ctx);
  const actionFeatures: ActionFeatures = {
    overlaps,
    shingles: mine.size,
    ask: target ? { path: target.path, title: target.title, confidence: round2(target.confidence) } : null,
    lead: leadNote(title, itemVec, p, index),
    person: personNote(title, body, itemVec, p, index),
  };

  const pf = personFolder(nameTitle(title, note.body), body, p, index);
  if (pf) {
    ev.add('person', pf, 12);
    ev.amount('person', 1);
    reasons.push(`a note about ${clip(title, 30)} → ${pf}`);
  }

  // Rules (strong) and the folder-structure descriptions (weak).
  const vars = { title, date: itemDate(note.frontmatter, rel, ctx.now) };
  let ruleDest: { rule: Rule; folder: string } | undefined;
  const subject = { title, body: note.body, tags: note.tags };
  for (const rule of ctx.rules.rules) {
    if (!ruleMatches(rule, subject, ctx.rules.aliases)) {
      // Part of a several-word rule ("receipts for the business"): weak evidence, like a folder description.
      const part = partialMention(rule, subject, ctx.rules.aliases);
      if (part >= 0.5) {
        ev.add('structure', folderOfTemplate(rule.destination), 1.5 * part);
        ev.amount('structure', 1);
      }
      continue;
    }
    rulesMatched.push(rule.name);
    // The folder the rule files into for this item ("50 Journal/{year}/{date}.md" → "50 Journal/2026").
    const f = folderOfTemplate(renderDestination(rule.destination, vars));
    // Rules are read in the order the person wrote them: when several match, the first one leads.
    ev.add('rule', f, ruleDest ? 2 : 6);
    ev.amount('rule', 1);
    ruleDest ??= { rule, folder: f };
  }
  if (rulesMatched.length) reasons.unshift(`rule ${rulesMatched.map((r) => `'${clip(r, 40)}'`).join(', ')}`);
  // Folder Structure descriptions ("`money/tax` — receipts and invoices for the business"): word
  // forms shared with the item vote for the folder; a description of a folder that holds no notes
  // itself ("`kestrel/` — my design studio") votes for its subfolders, by how much each is like the item.
  const itemTerms = new Set(terms(`${title} ${body}`));
  for (const [folder, desc] of ctx.rules.folders) {
    // Words most notes use ("note", "one", "year") say nothing about one folder.
    const overlap = [...new Set(terms(desc))].filter((t) => itemTerms.has(t) && p.idf(t) >= Math.log(10)).length;
    if (!overlap) continue;
    // The person's own words on what a folder holds weigh like its profile (1.5 a shared word, up to 3).
    const w = Math.min(3, overlap * 1.5);
    if (p.byFolder.has(folder) || !isDestination(folder)) ev.add('structure', folder, w);
    else {
      const kids = p.folders.filter((f) => f.folder.startsWith(folder + '/')).map((f) => [f.folder, folderCosine(itemVec, f)] as [string, number]);
      const sum = kids.reduce((a, [, c]) => a + c, 0);
      if (sum > 0) for (const [f, c] of kids) ev.add('structure', f, (w * c) / sum);
      else ev.add('structure', folder, w);
    }
    ev.amount('structure', 1);
  }
  if (hints.category) {
    const c = hints.category.replace(/^\/+|\/+$/g, '');
    ev.add('hint', c, 5);
    ev.amount('hint', 1);
    reasons.unshift(`hint ${c}`);
  }

  ev.spreadOverAreas(['entity', 'link', 'structure'], p, itemVec);

  // The kind of capture (a quotation, a dated entry, a link, an amount): folders where most notes
  // have that shape, far more than the vault as a whole, whatever the words.
  for (const t of itemVec.keys()) {
    if (!t.startsWith('~')) continue;
    const all = p.shapeShare(t);
    for (const f of p.folders) {
      const share = f.shapes.get(t) ?? 0;
      if (f.notes >= 2 && share >= 0.5 && share >= 2 * all && isDestination(f.folder)) {
        ev.add('shape', f.folder, 2 * share);
        ev.amount('shape', 1);
      }
    }
  }

  // Document types the vault teaches: folders whose notes share this item's shape (title form, fields, headings).
  const conv = vaultConventions(p, index, isDestination);
  const doctype = doctypeVotes(conv, docKeys(title, note.frontmatter, note.body));
  for (const [f, w] of doctype.votes) ev.add('doctype', f, w);
  if (doctype.votes.size) ev.amount('doctype', 1);

  // Folder profiles: the TF-IDF centroid of each folder's notes, titles, tags and path words.
  const prof = rankFolders(p, itemVec).filter(([f]) => isDestination(f));
  const c1 = prof[0]?.[1] ?? 0;
  prof.slice(0, 3).forEach(([f, c]) => {
    if (c >= 0.6 * c1) ev.add('profile', f, 3 * (c / c1) ** 2);
  });
  ev.amount('profile', c1 / 0.25);

  // Earlier decisions: the nearest items the person filed, and per-folder prototypes of them.
  let like: Map<string, number> = new Map();
  let namedWhy = new Map<string, { display: string; n: number }>();
  const m = ctx.memory?.(p);
  if (m?.entities.size) {
    // Earlier items naming the same client, colleague or project: where the person put them.
    const keys = entityKeys(title, note.body, entities.filter((e) => e.source !== 'topic').map((e) => e.text));
    const nv = entityMemoryVotes(m.entities, keys, p, (k) => (k.includes(':') ? 0 : new Set(index.places(k, 20).filter((x) => isDestination(x.folder)).map((x) => x.path)).size));
    namedWhy = nv.why;
    for (const [f, w] of nv.votes) ev.add('named', f, w * (pf && f !== pf ? 0.5 : 1));
    ev.amount('named', nv.amount);
  }
  if (m) {
    if (m.examples.length) {
      const mv = memoryVotes(m, itemVec, p.vector(title));
      like = mv.like;
      // A note about a person is a kind of note: earlier items about what they do do not place it.
      const k = (f: string) => (pf && f !== pf ? 0.5 : 1);
      for (const [f, s] of mv.votes) ev.add('examples', f, 6 * s * k(f));
      const p1 = mv.proto[0]?.[1] ?? 0;
      for (const [f, s] of mv.proto.slice(0, 2)) if (s >= 0.7 * p1) ev.add('examples', f, 3 * s * k(f));
      ev.amount('examples', Math.max(...[...mv.best.values(), 0]) / 0.5);
      // Corrections away from a folder discount it for similar items (not the person's own rule or hint).
      for (const [f, sim] of mv.against) if (!mv.votes.has(f) || (mv.votes.get(f) ?? 0) < 0.5 * sim) ev.penalty.set(f, Math.min(0.7, 1.2 * sim));
    }
  }

  const shownEntities = entities.slice(0, 4).map((e) => e.name);
  const evidence = [...ev.kinds.values()];
  // Keep means "nowhere to put it": no rule, hint, earlier decision or entity, and only faint word overlap.
  // Faint word overlap still places an item when the closest note and the closest folder profile agree.
  const topOf = (k: EvidenceKind) => [...(ev.kinds.get(k)?.votes ?? new Map<string, number>())].sort((a, b) => b[1] - a[1])[0]?.[0];
  // Agreement resting on one shared word (one note in the vault says "learn", so it is both the nearest note and the profile) is no agreement.
  // The kind of capture agreeing with the words is two signals, not one.
  const agree =
    (sharedTerms(itemVec, p.byFolder.get(topOf('profile') ?? '')?.vocab) >= 2 &&
      !!topOf('neighbours') &&
      topOf('neighbours') === topOf('profile') &&
      near[0] &&
      folderOfPath(near[0].path) === topOf('profile')) ||
    (!!topOf('shape') && topOf('shape') === topOf('profile'));
  const placed =
    ev.has('rule') ||
    ev.has('hint') ||
    ev.has('examples') ||
    ev.has('named') ||
    ev.has('entity') ||
    ev.has('link') ||
    ev.has('person') ||
    (ev.has('neighbours') && maxSim >= 0.1) ||
    (ev.has('profile') && c1 >= 0.08) ||
    !!agree;
  const kindVotes: KindVotes[] = evidence.map((e) => ({ kind: e.kind, amount: e.amount, votes: [...e.votes] }));
  const meta = (f: string): FolderMeta => ({ notes: p.byFolder.get(f)?.notes ?? 0, people: isPeople(f) });
  const trace: FilingTrace | undefined = ctx.trace
    ? {
        kinds: kindVotes,
        penalty: [...ev.penalty],
        action: actionFeatures,
        placed,
        folders: Object.fromEntries([...new Set(kindVotes.flatMap((k) => k.votes.map(([f]) => f)))].map((f) => [f, meta(f)])),
      }
    : undefined;
  const W = ctx.weights;
  const finish = (item: AnalysisItem): AnalysisDetail => ({ item, evidence: [], votes: [], trace });

  // Duplicates and merges: the same text → delete; most of a note repeated (or most of the item already in one),
  // or the person asking for it → merge.
  const early = earlyAction(actionFeatures, W?.thresholds ?? HAND_THRESHOLDS);
  if (early?.action === 'delete') {
    const conf = W ? calibrate(W.calibration.delete, { hand: 0.93 }) : 0.93;
    return finish(base({ suggested_action: 'delete', destination: early.path, confidence: round2(conf), reasoning: `Duplicate of ${early.path}` }));
  }
  if (early?.reason === 'overlap') {
    const hand = Math.min(0.93, 0.55 + 0.4 * early.overlap);
    const conf = W ? calibrate(W.calibration.merge, { hand }) : hand;
    return finish(base({ suggested_action: 'merge', destination: early.path, confidence: round2(conf), reasoning: `${Math.round(early.overlap * 100)}% overlap with ${early.path}; merge` }));
  }
  if (early?.reason === 'lead' || early?.reason === 'person') {
    const hand = 0.5 + 0.3 * Math.min(1, early.cos / 0.3);
    const conf = W ? calibrate(W.calibration.merge, { hand }) : hand;
    const why = early.reason === 'lead' ? `its title names ${clip(early.title, 50)}` : `more about ${clip(early.title, 40)}`;
    return finish(base({ suggested_action: 'merge', destination: early.path, confidence: round2(conf), reasoning: `${why}; merge into ${early.path}` }));
  }
  if (early?.reason === 'ask') {
    const conf = W ? calibrate(W.calibration.merge, { hand: early.confidence }) : early.confidence;
    return finish(base({ suggested_action: 'merge', destination: early.path, confidence: round2(conf), reasoning: `asks to add to ${clip(early.title, 50)}; merge into ${early.path}` }));
  }

  // An earlier keep, delete or merge of a nearly identical item (and no rule or hint of the person's): the same again.
  const again = m && m.decisions.length && !ev.has('rule') && !ev.has('hint') ? likeDecision(m, itemVec, p.vector(title)) : undefined;
  if (again && (again.action !== 'merge' || (again.destination && p.noteVector(again.destination)))) {
    const conf = round2(Math.min(0.85, 0.4 + 0.6 * (again.sim - 0.5) + 0.25));
    const why = `like '${clip(again.title, 40)}', which you ${again.action === 'keep' ? 'kept' : again.action === 'delete' ? 'deleted' : `merged into ${again.destination}`}`;
    return finish(base({ entities: entities.slice(0, 4).map((e) => e.name), entity_locations: locations, suggested_action: again.action, destination: again.action === 'merge' ? again.destination : null, confidence: again.action === 'keep' ? 0 : conf, reasoning: why }));
  }

  // The hand ranking adds every kind's votes; learned weights score each candidate folder from the same votes.
  const handRanked = ev.ranked();
  let ranked = W ? discount(rankCandidates(candidateFeatures(kindVotes, meta), W.ranker), ev.penalty) : handRanked;
  // What became of earlier suggestions: the person's tie-breaks between folders, and how often suggestions for the chosen folder were right.
  const learnt = m && m.outcomes.size ? learntAdjustment(m, ranked) : undefined;
  if (learnt) {
    ranked = learnt.ranked;
    if (learnt.swapped) reasons.unshift(`you moved ${learnt.swapped.n} item${learnt.swapped.n === 1 ? '' : 's'} suggested for ${learnt.swapped.from} to ${learnt.swapped.to}`);
  }
  const first = ranked[0];
  // Evidence that adds up to almost nothing for the chosen folder is nowhere to put it either.
  const hand = first ? handConfidence(evidence, W ? handRanked : ranked, first[0]) : 0;
  if (!first || !placed || hand < (W?.thresholds.keep ?? KEEP_BELOW)) {
    return {
      item: base({ entities: shownEntities, entity_locations: locations, confidence: 0, reasoning: 'No rule, entity, earlier decision or similar note places it' }),
      evidence: [],
      votes: ranked.slice(0, 5),
      trace,
    };
  }
  const folder = first[0];
  const n = like.get(folder) ?? 0;
  const named = ev.kinds.get('named')?.votes.get(folder) ? namedWhy.get(folder) : undefined;
  if (named) reasons.unshift(`like ${named.n} earlier item${named.n === 1 ? '' : 's'} about ${clip(named.display, 30)} you filed in ${folder}`);
  else if (n) reasons.unshift(`like ${n} earlier item${n === 1 ? '' : 's'} you filed in ${folder}`);
  const dest = ruleDest && ruleDest.folder === folder ? renderDestination(ruleDest.rule.destination, vars) : `${folder}/${slugify(title)}.md`;
  const { rows } = confidenceOf(evidence, folder);
  const confidence = round2((W ? moveConfidence(W, evidence, first[1] / ranked.reduce((a, [, v]) => a + v, 0), hand, folder) : hand) * (learnt?.factor ?? 1));
  if (doctype.votes.get(folder) && topOf('doctype') === folder) reasons.unshift(`shaped like ${folder}'s notes (${clip(doctype.why.map((k) => k.replace(/^[a-z]+:/, '')).join(', '), 40)})`);
  if (!reasons.length) reasons.push(`words like ${folder}'s notes`);
  return {
    item: base({
      entities: shownEntities,
      entity_locations: locations,
      suggested_action: 'move',
      destination: dest,
      confidence,
      reasoning: clip(reasons.join('; '), 140),
      rules_matched: rulesMatched,
    }),
    evidence: rows,
    votes: ranked.slice(0, 5),
    trace,
    planned: dest,
  };
}

/** Corrections away from a folder discount its probability (renormalised, best first). */
function discount(ranked: Array<[string, number]>, penalty: Map<string, number>): Array<[string, number]> {
  if (!penalty.size) return ranked;
  return ranked.map(([f, v]) => [f, v * (1 - (penalty.get(f) ?? 0))] as [string, number]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/**
 * The hand confidence that `chosen` is right: the kinds' noisy-OR (confidenceOf) × the margin of its
 * votes over the best other folder (×0.6 on a tie or when another folder has more).
 */
export function handConfidence(evidence: Evidence[], handRanked: Array<[string, number]>, chosen: string): number {
  const v1 = handRanked.find(([f]) => f === chosen)?.[1] ?? 0;
  const v2 = handRanked.find(([f]) => f !== chosen)?.[1] ?? 0;
  const m = v1 <= 0 ? 0 : Math.max(0, Math.min(1, (v1 - v2) / (0.5 * v1)));
  return confidenceOf(evidence, chosen).confidence * (0.6 + 0.4 * m);
}

/**
 * A learned move's confidence: Platt on the folder's probability and the hand confidence. Word overlap
 * alone (no rule, hint, decision, entity, person or link for the folder) stays below 0.8, as by hand.
 */
export function moveConfidence(W: FilingWeights, evidence: Evidence[], p1: number, hand: number, chosen: string): number {
  const c = calibrate(W.calibration.move, { p1, hand });
  const strong = evidence.some((e) => STRONG_KINDS.has(e.kind) && [...e.votes].some(([f, w]) => w > 0 && related(f, chosen) > 0));
  return Math.min(0.97, strong ? c : Math.min(c, 0.74));
}

/** A file of that name (or vault-relative path) anywhere in the vault, outside hidden folders. */
function vaultHasFile(root: string, name: string): boolean {
  const rel = name.replace(/\\/g, '/');
  const base = path.posix.basename(rel);
  if (!base || base.startsWith('.')) return false;
  // A vault-relative path is checked in place, never outside the vault.
  if (!rel.split('/').includes('..') && !path.isAbsolute(rel) && fs.existsSync(path.join(root, ...rel.split('/')))) return true;
  let seen = 0;
  let found = false;
  walkTree(root, (e) => {
    if (found || ++seen > 20000 || e.name.startsWith('.')) return false;
    if (e.isDirectory()) return true;
    if (e.name === base) found = true;
    return false;
  });
  // Too big to search: assume it is there (never delete on a guess).
  return found || seen > 20000;
}

/** Normalised key of a folder name (for comparisons in the bench and UI). */
export const folderKey = (f: string) => normName(f.replace(/\//g, ' '));

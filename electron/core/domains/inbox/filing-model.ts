/**
 * How much each kind of filing evidence counts, learned from labelled sets (models/filing-weights.json,
 * written by `npm run train:filing`). The evidence kinds stay what explains a suggestion; this module only
 * turns their votes into (a) a folder ranking — a linear score per candidate folder over named features
 * (each kind's raw votes, its share, whether the folder is that kind's top one; the folder's size, depth
 * and people-ness), softmax over the candidates —, (b) the action thresholds (duplicate, overlap merge,
 * asked-for merge, keep) and (c) a calibration of confidence (Platt per action). Without a weights file
 * (or with one that does not validate) analysis uses the hand values.
 *
 * The same feature functions are used by the trainer (bench/filing-train.ts) and at run time, so the
 * features a model was trained on cannot drift from the ones it is applied to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The kinds of evidence that place an item in a folder (mirrors analyze.ts). */
export const FILING_KINDS = ['rule', 'hint', 'examples', 'named', 'entity', 'person', 'link', 'neighbours', 'profile', 'structure', 'shape', 'doctype'] as const;
export type FilingKind = (typeof FILING_KINDS)[number];
/** Kinds that can carry a confidence of 0.8 or more on their own (the rest is word overlap). */
export const STRONG_KINDS: ReadonlySet<FilingKind> = new Set(['rule', 'hint', 'examples', 'named', 'entity', 'person', 'link']);

/** Per kind: raw votes (the hand ranking's scale), share of the kind's votes, is the kind's top folder, amount × share. */
const PER_KIND = ['votes', 'share', 'top', 'amount'] as const;
const PER_FOLDER = ['folder.people', 'folder.size', 'folder.depth'] as const;
/** Feature names, in vector order. */
export const FEATURE_NAMES: string[] = [...FILING_KINDS.flatMap((k) => PER_KIND.map((f) => `${k}.${f}`)), ...PER_FOLDER];

/** The hand ranking as weights: every kind's raw votes added (the learned weights are pulled towards these). */
export const HAND_RANKER: Record<string, number> = Object.fromEntries(FEATURE_NAMES.map((n) => [n, n.endsWith('.votes') ? 1 : 0]));

/** One kind's votes for an item, as analysis collected them. */
export interface KindVotes {
  kind: FilingKind;
  amount: number;
  votes: Array<[string, number]>;
}

export interface FolderMeta {
  notes: number;
  people: boolean;
}

/** Candidate folders (every folder any kind votes for) and their feature vectors. */
export function candidateFeatures(kinds: KindVotes[], meta: (folder: string) => FolderMeta): Array<{ folder: string; x: number[] }> {
  const folders = new Set<string>();
  for (const k of kinds) for (const [f, w] of k.votes) if (w > 0) folders.add(f);
  const stats = new Map<FilingKind, { total: number; top: string; by: Map<string, number> }>();
  for (const k of kinds) {
    let total = 0;
    let top = '';
    let topW = 0;
    const by = new Map<string, number>();
    for (const [f, w] of k.votes) {
      if (!(w > 0)) continue;
      total += w;
      by.set(f, (by.get(f) ?? 0) + w);
    }
    for (const [f, w] of by) if (w > topW || (w === topW && f < top)) [top, topW] = [f, w];
    stats.set(k.kind, { total, top, by });
  }
  const amounts = new Map(kinds.map((k) => [k.kind, Math.max(0, Math.min(1, k.amount))]));
  return [...folders].sort().map((folder) => {
    const x: number[] = [];
    for (const kind of FILING_KINDS) {
      const s = stats.get(kind);
      const v = s?.by.get(folder) ?? 0;
      const share = s && s.total > 0 ? v / s.total : 0;
      x.push(v, share, s && s.top === folder ? 1 : 0, (amounts.get(kind) ?? 0) * share);
    }
    const m = meta(folder);
    x.push(m.people ? 1 : 0, Math.log1p(m.notes), folder.split('/').length - 1);
    return { folder, x };
  });
}

/** Linear scores → softmax probabilities, best first (ties by name). */
export function rankCandidates(cands: Array<{ folder: string; x: number[] }>, w: number[]): Array<[string, number]> {
  if (!cands.length) return [];
  const s = cands.map((c) => c.x.reduce((a, v, i) => a + v * (w[i] ?? 0), 0));
  const mx = Math.max(...s);
  const e = s.map((v) => Math.exp(v - mx));
  const z = e.reduce((a, b) => a + b, 0);
  return cands.map((c, i) => [c.folder, (e[i] ?? 0) / z] as [string, number]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** What the action choice looks at, per item. */
export interface ActionFeatures {
  /** The closest notes (search order): how much of the item is in each (c) and of each in the item (rev; `small`: the note has < 3 shingles). */
  overlaps: Array<{ path: string; c: number; rev: number; small: boolean; inbox: boolean; later: boolean }>;
  /** Shingles in the item (an overlap needs at least 3). */
  shingles: number;
  /** The note the item asks to be merged into, and how sure that ask is. */
  ask: { path: string; title: string; confidence: number } | null;
  /** A note named by the lead of the title ("Prêt travaux - offre" → "Prêt travaux"), and how much the item reads like it. */
  lead?: { path: string; title: string; cos: number } | null;
  /** The person note the title starts with; `about`: the item gives a way to reach or know them. */
  person?: { path: string; title: string; about: boolean; cos: number } | null;
}

export interface Thresholds {
  /** Both containments at least this → duplicate (delete). */
  duplicate: number;
  /** Either containment at least this → merge into that note. */
  overlap: number;
  /** An asked-for merge at least this sure → merge. */
  ask: number;
  /** Move evidence (hand confidence × margin) below this → keep ("nowhere to put it"). */
  keep: number;
  /** A note named by the title's lead, the item reading at least this much like it → merge (above 1: never). */
  lead: number;
  /** A person note the title starts with, the item saying how to reach or know them, reading at least this much like it → merge (above 1: never). */
  person: number;
}

export const HAND_THRESHOLDS: Thresholds = { duplicate: 0.9, overlap: 0.6, ask: 0, keep: 0.06, lead: 1.01, person: 1.01 };

export type EarlyAction =
  | { action: 'delete'; path: string; overlap: number }
  | { action: 'merge'; path: string; overlap: number; reason: 'overlap' }
  | { action: 'merge'; path: string; confidence: number; title: string; reason: 'ask' }
  | { action: 'merge'; path: string; cos: number; title: string; reason: 'lead' | 'person' };

/** Duplicate, overlap merge or asked-for merge, in that order (before any folder is weighed). */
export function earlyAction(a: ActionFeatures, t: Thresholds): EarlyAction | undefined {
  if (a.shingles >= 3) {
    for (const o of a.overlaps) {
      if (o.c >= t.duplicate && o.rev >= t.duplicate) {
        if (o.inbox && o.later) continue;
        return { action: 'delete', path: o.path, overlap: Math.min(o.c, o.rev) };
      }
      const overlap = Math.max(o.c, o.small ? 0 : o.rev);
      if (overlap >= t.overlap && !o.inbox) return { action: 'merge', path: o.path, overlap, reason: 'overlap' };
    }
  }
  if (a.ask && a.ask.confidence >= t.ask) return { action: 'merge', path: a.ask.path, confidence: a.ask.confidence, title: a.ask.title, reason: 'ask' };
  if (a.lead && a.lead.cos >= t.lead) return { action: 'merge', path: a.lead.path, cos: a.lead.cos, title: a.lead.title, reason: 'lead' };
  if (a.person?.about && a.person.cos >= t.person) return { action: 'merge', path: a.person.path, cos: a.person.cos, title: a.person.title, reason: 'person' };
  return undefined;
}

/** Platt scaling: P(right) = σ(a·x + b) over a few named inputs. */
const Platt = z.object({ weights: z.record(z.string(), z.number()), bias: z.number() });
export type PlattModel = z.infer<typeof Platt>;

const WeightsFile = z.object({
  version: z.literal(1),
  ranker: z.record(z.string(), z.number()),
  thresholds: z.object({ duplicate: z.number(), overlap: z.number(), ask: z.number(), keep: z.number(), lead: z.number(), person: z.number() }),
  calibration: z.object({ move: Platt, merge: Platt, delete: Platt }),
});
export type FilingWeightsFile = z.infer<typeof WeightsFile>;

/** Weights ready to apply: the ranker as a vector in FEATURE_NAMES order. */
export interface FilingWeights {
  ranker: number[];
  thresholds: Thresholds;
  calibration: FilingWeightsFile['calibration'];
}

export function compileWeights(f: FilingWeightsFile): FilingWeights {
  return { ranker: FEATURE_NAMES.map((n) => f.ranker[n] ?? 0), thresholds: f.thresholds, calibration: f.calibration };
}

/** A weights file, validated (every value finite, every ranker feature named); undefined when absent or invalid. */
export function parseFilingWeights(text: string): FilingWeights | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = WeightsFile.safeParse(raw);
  if (!r.success) return undefined;
  const nums = [...Object.values(r.data.ranker), ...Object.values(r.data.thresholds), ...Object.values(r.data.calibration).flatMap((p) => [...Object.values(p.weights), p.bias])];
  if (!nums.every(Number.isFinite) || !FEATURE_NAMES.every((n) => n in r.data.ranker)) return undefined;
  return compileWeights(r.data);
}

export const WEIGHTS_FILE = 'filing-weights.json';

/** `<appRoot>/models/filing-weights.json`, or undefined (the hand values apply). */
export function loadFilingWeights(appRoot: string): FilingWeights | undefined {
  try {
    return parseFilingWeights(fs.readFileSync(path.join(appRoot, 'models', WEIGHTS_FILE), 'utf8'));
  } catch {
    return undefined;
  }
}

const logit = (p: number) => {
  const q = Math.min(0.999, Math.max(0.001, p));
  return Math.log(q / (1 - q));
};

/** The calibration inputs of a suggestion. */
export interface CalibrationInput {
  /** Softmax probability of the chosen folder (moves). */
  p1?: number;
  /** The hand confidence (noisy-OR of the kinds × margin; for merges and deletes, their own formula). */
  hand: number;
}

export const calibrationInputs = (c: CalibrationInput): Record<string, number> => ({ p1: logit(c.p1 ?? 0.5), hand: logit(c.hand) });

export function calibrate(model: PlattModel, c: CalibrationInput): number {
  const x = calibrationInputs(c);
  const s = Object.entries(model.weights).reduce((a, [k, w]) => a + w * (x[k] ?? 0), model.bias);
  return 1 / (1 + Math.exp(-s));
}

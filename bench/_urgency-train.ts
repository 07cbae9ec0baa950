/**
 * Learns how much each urgency signal counts, from every mailbox with urgency gold
 * (`bench/_mail-sets.ts`: in-sample and blind; never held-out), and reports leave-one-set-out
 * (LOSO) figures.
 *
 * 1. Dump: each set is scored once with the hand weights; every labelled inbound message's
 *    signals (urgency.ts: names, levels, values, hand weights — thread context and the person's
 *    prose definitions included) are kept with its gold level.
 * 2. Model: multinomial logistic regression over the signals' hand contributions
 *    (score(level) = Σ θ[signal][level] × hand × value), L2 towards the hand weights (θ = 1 on the
 *    signal's own level, 0 elsewhere), so a strong penalty is the hand model. Three shapes: `bias`
 *    (only the per-level priors move: a calibration), `scale` (one multiplier per signal, on its own
 *    level) and `full` (a weight per signal and level).
 *    Full-batch gradient descent from the hand weights: deterministic, no randomness.
 * 3. LOSO: for each set, the shape and L2 strength are chosen by LOSO over the OTHER sets, a model
 *    is trained on the other sets and scored on this one (on the dumped signals; `--eval` also
 *    re-runs the whole set with the fold's weights, so thread context follows the new verdicts).
 * 4. Shipped: shape and strength chosen by LOSO over all sets, trained on all, written to
 *    `electron/core/domains/mail/urgency-weights.json` with `--write` (enabled only when the blind
 *    LOSO mean beats the hand weights').
 *
 * 5. The text model (round 7): the mail urgency head's probabilities (models/train/urgency-head.ts)
 *    join each row as `text model@level` signals (hand weight 0). Honest: a row is read with a head
 *    trained without its own mailbox and without the mailbox a fold scores (55 heads for 10 sets).
 *    The table shows hand, learned without the head, the head alone, hand+head and learned+head.
 *
 * Usage: node --import tsx bench/_urgency-train.ts [--write] [--eval] [--check] [--no-head] [--grid] [--cache FILE]
 *   --no-head: the signals alone (no head trained).
 *   --check: exits 1 when the committed weights file differs from what this script writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { evaluateMailSet, type MailGold } from './_mail-eval';
import { urgencySets, type UrgencySet } from './_mail-sets';
import { HAND_MODEL, LEVELS, featureId, type Urgency, type UrgencyModel, type UrgencySignal } from '../electron/core/domains/mail/urgency-model';
import { textHeadSignals, type UrgencyVerdict } from '../electron/core/domains/mail/urgency';
import { URGENCY_SEED, headCorpus, headProbs, trainHead, type HeadExample } from '../models/train/urgency-head';
import type { LinearModel } from '../models/train/softmax';

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const WEIGHTS_FILE = path.join(REPO, 'electron/core/domains/mail/urgency-weights.json');
const LAMBDAS = [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1, 3];
const SHAPES = ['bias', 'scale', 'full'] as const;
type Shape = (typeof SHAPES)[number];
const NEWTON_STEPS = 25;

interface Row {
  set: string;
  gold: Urgency;
  signals: UrgencySignal[];
  /** What the mail urgency head reads for this message (urgencyHeadText). */
  headText?: string;
}

interface SetInfo extends UrgencySet {
  hand: number;
  keyword: number;
  majority: number;
  alwaysMedium: number;
  n: number;
}

/** Scores every set with the hand weights, keeping each labelled message's signals. */
async function dump(sets: UrgencySet[]): Promise<{ rows: Row[]; info: SetInfo[] }> {
  const rows: Row[] = [];
  const info: SetInfo[] = [];
  for (const s of sets) {
    const gold = JSON.parse(fs.readFileSync(path.join(s.dir, 'gold.json'), 'utf8')) as MailGold;
    let last: UrgencyVerdict | undefined;
    let headText: string | undefined;
    // The head's signals are added per fold (below): the dump records only what the head would read.
    const recordText = (t: string) => {
      headText = t;
      return Promise.resolve(undefined);
    };
    const e = await evaluateMailSet(s.dir, {
      models: true,
      urgency: { model: HAND_MODEL, observe: (v) => (last = v), head: recordText },
      onTriaged: (k) => {
        const g = gold.messages[k]?.urgency;
        if (g === 'low' || g === 'medium' || g === 'high') rows.push({ set: s.name, gold: g, signals: last?.signals ?? [], headText });
        last = undefined;
        headText = undefined;
      },
    });
    const mine = rows.filter((r) => r.set === s.name);
    info.push({ ...s, hand: e.urgency, keyword: e.baseline.urgency_keyword, majority: e.baseline.urgency_majority, alwaysMedium: mine.filter((r) => r.gold === 'medium').length / (mine.length || 1), n: mine.length });
  }
  return { rows, info };
}

/** Every feature seen, sorted, with its own level and hand weight. */
function featuresOf(rows: Row[]): Array<{ id: string; level: Urgency; hand: number; key: string }> {
  const m = new Map<string, { id: string; level: Urgency; hand: number; key: string }>();
  for (const r of rows) for (const s of r.signals) m.set(featureId(s), { id: featureId(s), level: s.level, hand: s.hand, key: s.key });
  return [...m.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

type Feature = ReturnType<typeof featuresOf>[number];

/** A row as (feature index, contribution) pairs: the hand weight × value (the value alone for hand-0 signals). */
function encode(rows: Row[], feats: Feature[]): Array<{ x: Array<[number, number]>; y: number; set: string }> {
  const index = new Map(feats.map((f, i) => [f.id, i]));
  return rows.map((r) => ({
    set: r.set,
    y: LEVELS.indexOf(r.gold),
    x: r.signals.flatMap((s): Array<[number, number]> => {
      const i = index.get(featureId(s));
      return i === undefined ? [] : [[i, s.value * (s.hand || 1)]];
    }),
  }));
}

/**
 * Multinomial logistic regression, L2 towards the hand weights: minimises
 * mean cross-entropy + λ/2 ‖θ − θ₀‖² over the free weights by damped Newton steps from θ₀
 * (the problem is small: tens of features × 3 levels). Returns θ[feature][level].
 */
function train(data: ReturnType<typeof encode>, feats: Feature[], lambda: number, shape: Shape): number[][] {
  const F = feats.length;
  const prior = new Float64Array(F * 3);
  const freeIdx: number[] = [];
  feats.forEach((f, i) => {
    const own = LEVELS.indexOf(f.level);
    for (let l = 0; l < 3; l++) {
      prior[i * 3 + l] = l === own && f.hand !== 0 ? 1 : 0;
      if (shape === 'full' || (l === own && (shape === 'scale' || f.key === 'prior' || f.key === 'text model'))) freeIdx.push(i * 3 + l);
    }
  });
  const P = freeIdx.length;
  const pos = new Int32Array(F * 3).fill(-1);
  freeIdx.forEach((k, j) => (pos[k] = j));
  const n = data.length || 1;
  const theta = Float64Array.from(prior);
  const probs = (th: Float64Array, x: Array<[number, number]>): number[] => {
    const z = [0, 0, 0];
    for (const [f, v] of x) for (let l = 0; l < 3; l++) z[l] = (z[l] ?? 0) + (th[f * 3 + l] ?? 0) * v;
    const mx = Math.max(...z);
    const e = z.map((v) => Math.exp(v - mx));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / sum);
  };
  const loss = (th: Float64Array): number => {
    let ce = 0;
    for (const d of data) ce -= Math.log(Math.max(1e-300, probs(th, d.x)[d.y] ?? 0));
    let reg = 0;
    for (const k of freeIdx) reg += ((th[k] ?? 0) - (prior[k] ?? 0)) ** 2;
    return ce / n + (lambda / 2) * reg;
  };
  let current = loss(theta);
  for (let it = 0; it < NEWTON_STEPS; it++) {
    const g = new Float64Array(P);
    const H = new Float64Array(P * P);
    for (let j = 0; j < P; j++) {
      g[j] = lambda * ((theta[freeIdx[j] ?? 0] ?? 0) - (prior[freeIdx[j] ?? 0] ?? 0));
      H[j * P + j] = lambda;
    }
    for (const d of data) {
      const p = probs(theta, d.x);
      for (const [f, v] of d.x)
        for (let l = 0; l < 3; l++) {
          const a = pos[f * 3 + l] ?? -1;
          if (a < 0) continue;
          g[a] = (g[a] ?? 0) + (((p[l] ?? 0) - (l === d.y ? 1 : 0)) * v) / n;
          for (const [f2, v2] of d.x)
            for (let m = 0; m < 3; m++) {
              const b = pos[f2 * 3 + m] ?? -1;
              if (b < 0) continue;
              H[a * P + b] = (H[a * P + b] ?? 0) + ((v * v2 * (p[l] ?? 0) * ((l === m ? 1 : 0) - (p[m] ?? 0))) / n);
            }
        }
    }
    const step = solve(H, g, P);
    // backtracking: halve the step until the objective falls
    let t = 1;
    let next = theta;
    let nextLoss = Infinity;
    for (let k = 0; k < 30; k++, t /= 2) {
      next = Float64Array.from(theta);
      for (let j = 0; j < P; j++) next[freeIdx[j] ?? 0] = (next[freeIdx[j] ?? 0] ?? 0) - t * (step[j] ?? 0);
      nextLoss = loss(next);
      if (nextLoss <= current) break;
    }
    if (!(nextLoss < current - 1e-10)) break;
    theta.set(next);
    current = nextLoss;
  }
  return feats.map((_, i) => [theta[i * 3] ?? 0, theta[i * 3 + 1] ?? 0, theta[i * 3 + 2] ?? 0]);
}

/** Solves H x = g (H symmetric positive definite) by Cholesky decomposition. */
function solve(H: Float64Array, g: Float64Array, P: number): Float64Array {
  const L = new Float64Array(P * P);
  for (let i = 0; i < P; i++)
    for (let j = 0; j <= i; j++) {
      let sum = H[i * P + j] ?? 0;
      for (let k = 0; k < j; k++) sum -= (L[i * P + k] ?? 0) * (L[j * P + k] ?? 0);
      L[i * P + j] = i === j ? Math.sqrt(Math.max(sum, 1e-12)) : sum / (L[j * P + j] ?? 1);
    }
  const y = new Float64Array(P);
  for (let i = 0; i < P; i++) {
    let sum = g[i] ?? 0;
    for (let k = 0; k < i; k++) sum -= (L[i * P + k] ?? 0) * (y[k] ?? 0);
    y[i] = sum / (L[i * P + i] ?? 1);
  }
  const x = new Float64Array(P);
  for (let i = P - 1; i >= 0; i--) {
    let sum = y[i] ?? 0;
    for (let k = i + 1; k < P; k++) sum -= (L[k * P + i] ?? 0) * (x[k] ?? 0);
    x[i] = sum / (L[i * P + i] ?? 1);
  }
  return x;
}

const round4 = (x: number) => Math.round(x * 10000) / 10000;

/** θ as the runtime's model: weight per unit value on each level, rounded as written. */
function asModel(theta: number[][], feats: Feature[]): UrgencyModel {
  const weights: UrgencyModel['weights'] = {};
  feats.forEach((f, i) => {
    const scale = f.hand || 1;
    const t = theta[i] ?? [0, 0, 0];
    weights[f.id] = { low: round4((t[0] ?? 0) * scale), medium: round4((t[1] ?? 0) * scale), high: round4((t[2] ?? 0) * scale) };
  });
  return { name: 'learned', weights };
}

/** The level a model gives a dumped row (ties → the first level, as urgencyOf). */
function predict(model: UrgencyModel, signals: UrgencySignal[]): Urgency {
  const w: Record<Urgency, number> = { low: 0, medium: 0, high: 0 };
  for (const s of signals) for (const l of LEVELS) w[l] += (model.weights[featureId(s)]?.[l] ?? (l === s.level ? s.hand : 0)) * s.value;
  const max = Math.max(w.low, w.medium, w.high);
  return LEVELS.find((l) => w[l] === max) ?? 'medium';
}

const accuracy = (model: UrgencyModel, rows: Row[]) => (rows.length ? rows.filter((r) => predict(model, r.signals) === r.gold).length / rows.length : 0);

function fit(rows: Row[], feats: Feature[], lambda: number, shape: Shape): UrgencyModel {
  return asModel(train(encode(rows, feats), feats, lambda, shape), feats);
}

/** Mean per-set LOSO accuracy over `sets` (dumped signals) for one shape and strength. */
function losoMean(rows: Row[], feats: Feature[], sets: string[], lambda: number, shape: Shape): number {
  const accs = sets.map((s) => accuracy(fit(rows.filter((r) => r.set !== s), feats, lambda, shape), rows.filter((r) => r.set === s)));
  return accs.reduce((a, b) => a + b, 0) / (accs.length || 1);
}

/** The shape and strength with the best mean LOSO accuracy over `sets` (ties → the stronger penalty, then `scale`). */
function choose(rows: Row[], feats: Feature[], sets: string[]): { lambda: number; shape: Shape; loso: number } {
  let best = { lambda: LAMBDAS[LAMBDAS.length - 1] ?? 1, shape: 'scale' as Shape, loso: -1 };
  for (const shape of SHAPES)
    for (const lambda of [...LAMBDAS].reverse()) {
      const m = losoMean(rows, feats, sets, lambda, shape);
      if (m > best.loso + 1e-9) best = { lambda, shape, loso: m };
    }
  return best;
}

const argmax = (p: Record<Urgency, number>): Urgency => LEVELS.reduce((a, b) => (p[b] > p[a] ? b : a));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);

const args = new Set(process.argv.slice(2));
const sets = urgencySets();
// --cache FILE: reuse a dump written by an earlier run (for trying shapes; the shipped file is always written from a fresh dump)
const cacheAt = process.argv.indexOf('--cache');
const cache = cacheAt > 0 ? process.argv[cacheAt + 1] : undefined;
const { rows: baseRows, info } = cache && fs.existsSync(cache) ? (JSON.parse(fs.readFileSync(cache, 'utf8')) as Awaited<ReturnType<typeof dump>>) : await dump(sets);
if (cache) fs.writeFileSync(cache, JSON.stringify({ rows: baseRows, info }));
const names = info.map((s) => s.name);

// ---- the mail urgency head, honestly: a message's head probabilities never come from a head trained on its own mailbox.
// --no-head: the signals alone (the figures before the head).
const useHead = !args.has('--no-head');
const corpus: HeadExample[] = useHead ? await headCorpus(REPO) : [];
const heads = new Map<string, LinearModel>();
/** The head trained on the corpus without the named mailboxes (cached). */
const headWithout = (...out: string[]): LinearModel => {
  const key = [...new Set(out)].sort().join('|');
  let m = heads.get(key);
  if (!m) {
    m = trainHead(corpus.filter((e) => !out.includes(e.set)), URGENCY_SEED);
    heads.set(key, m);
  }
  return m;
};
/** Rows with the head's signals added, each row's head trained without its own mailbox and without `also` (the set a fold leaves out). */
const withHead = (rs: Row[], also?: string): Row[] =>
  useHead ? rs.map((r) => ({ ...r, signals: r.headText === undefined ? r.signals : [...r.signals, ...textHeadSignals(headProbs(also === undefined ? headWithout(r.set) : headWithout(r.set, also), r.headText))] })) : rs;
const t0 = Date.now();
const allRows = withHead(baseRows);
const feats = featuresOf(allRows);
console.log(`${baseRows.length} labelled messages in ${names.length} sets; ${feats.length} features${useHead ? `; head corpus ${corpus.length} messages` : ''}`);

if (args.has('--grid')) {
  for (const shape of SHAPES)
    for (const lambda of LAMBDAS) {
      const per = names.map((s) => {
        const fr = withHead(baseRows, s);
        return accuracy(fit(fr.filter((r) => r.set !== s), feats, lambda, shape), fr.filter((r) => r.set === s));
      });
      console.log(`${shape} λ=${lambda}: LOSO ${per.map(pct).join(' ')} | mean ${pct(mean(per))}, blind ${pct(mean(per.filter((_, i) => info[i]?.blind)))}`);
    }
}

// Nested LOSO: the held-out set takes no part in choosing the shape and strength, nor in training the head its rows are read with.
const loso: Record<string, { dumped: number; rerun?: number; lambda: number; shape: Shape; handHead: number; headAlone: number; noHead: number }> = {};
for (const s of info) {
  const others = names.filter((x) => x !== s.name);
  const fr = withHead(baseRows, s.name);
  const c = choose(fr.filter((r) => r.set !== s.name), feats, others);
  const model = fit(fr.filter((r) => r.set !== s.name), feats, c.lambda, c.shape);
  const mine = fr.filter((r) => r.set === s.name);
  // the learned weights without the head (the figure before this change), for the same table
  const plain = baseRows.filter((r) => r.set !== s.name);
  const cp = choose(plain, feats, others);
  const noHead = accuracy(fit(plain, feats, cp.lambda, cp.shape), baseRows.filter((r) => r.set === s.name));
  const head = useHead ? headWithout(s.name) : undefined;
  const headAlone = head ? mine.filter((r) => r.headText !== undefined && argmax(headProbs(head, r.headText)) === r.gold).length / (mine.length || 1) : 0;
  loso[s.name] = { dumped: accuracy(model, mine), lambda: c.lambda, shape: c.shape, handHead: accuracy(HAND_MODEL, mine), headAlone, noHead };
  if (args.has('--eval')) loso[s.name]!.rerun = (await evaluateMailSet(s.dir, { models: true, urgency: { model, head: head ? (t: string) => Promise.resolve(headProbs(head, t)) : null } })).urgency;
}
console.log(`(${((Date.now() - t0) / 1000).toFixed(0)} s, ${heads.size} heads trained)`);
console.log('\nset                  n   hand    learned  head    hand+head  learned+head LOSO (dumped / re-run)  λ, shape      always-medium  majority  keyword');
for (const s of info) {
  const l = loso[s.name]!;
  console.log(`${s.name.padEnd(18)} ${String(s.n).padStart(3)}   ${pct(s.hand).padStart(6)}  ${pct(l.noHead).padStart(6)}  ${pct(l.headAlone).padStart(6)}  ${pct(l.handHead).padStart(6)}     ${pct(l.dumped).padStart(6)} / ${l.rerun === undefined ? '  –   ' : pct(l.rerun).padStart(6)}               ${String(l.lambda).padEnd(6)} ${l.shape.padEnd(6)}  ${pct(s.alwaysMedium).padStart(6)}         ${pct(s.majority).padStart(6)}    ${pct(s.keyword).padStart(6)}`);
}
const blind = info.filter((s) => s.blind);
const inS = info.filter((s) => !s.blind);
const blindHand = mean(blind.map((s) => s.hand));
const blindPlain = mean(blind.map((s) => loso[s.name]?.noHead ?? 0));
const blindLearned = mean(blind.map((s) => loso[s.name]?.rerun ?? loso[s.name]?.dumped ?? 0));
const m = (xs: SetInfo[], f: (l: (typeof loso)[string]) => number) => pct(mean(xs.map((s) => f(loso[s.name]!))));
console.log(`\nblind mean: hand ${pct(blindHand)}, learned LOSO ${pct(blindPlain)}, head alone ${m(blind, (l) => l.headAlone)}, hand+head ${m(blind, (l) => l.handHead)}, learned+head LOSO ${pct(blindLearned)}${args.has('--eval') ? ' (re-run)' : ' (dumped)'}; always-medium ${pct(mean(blind.map((s) => s.alwaysMedium)))}, keyword ${pct(mean(blind.map((s) => s.keyword)))}`);
console.log(`in-sample mean: hand ${pct(mean(inS.map((s) => s.hand)))}, learned LOSO ${m(inS, (l) => l.noHead)}, head alone ${m(inS, (l) => l.headAlone)}, hand+head ${m(inS, (l) => l.handHead)}, learned+head LOSO ${m(inS, (l) => l.rerun ?? l.dumped)}`);

// The shipped weights: chosen by LOSO over every set, trained on every set (each row read by the head trained without its mailbox).
const final = choose(allRows, feats, names);
const model = fit(allRows, feats, final.lambda, final.shape);
// With the head, the learned weights must beat the learned weights without it (the figure before); without, the hand weights.
const enabled = useHead ? blindLearned > blindPlain && blindLearned > blindHand : blindLearned > blindHand;
const file = {
  about: 'How much each urgency signal counts (urgency-model.ts): per feature `signal@level`, the weight per unit of value on each level. Written by bench/_urgency-train.ts; do not edit by hand.',
  enabled,
  why: enabled ? `blind LOSO mean ${pct(blindLearned)} > hand ${pct(blindHand)}${useHead ? ` and > learned without the text model ${pct(blindPlain)}` : ''}` : `blind LOSO mean ${pct(blindLearned)} ≤ hand ${pct(blindHand)}${useHead ? ` or learned without the text model ${pct(blindPlain)}` : ''}: the hand weights decide`,
  shape: final.shape,
  lambda: final.lambda,
  trained_on: info.map((s) => `${s.name} (${s.n})`),
  features: Object.fromEntries(feats.map((f) => [f.id, { hand: f.hand, ...model.weights[f.id] }])),
};
const text = `${JSON.stringify(file, null, 2)}\n`;
console.log(`\nshipped: shape ${final.shape}, λ ${final.lambda}, LOSO mean over all sets ${pct(final.loso)}; enabled ${enabled}`);
if (args.has('--write') && !cache) {
  fs.writeFileSync(WEIGHTS_FILE, text);
  console.log(`wrote ${path.relative(REPO, WEIGHTS_FILE)}`);
}
if (args.has('--check') && fs.readFileSync(WEIGHTS_FILE, 'utf8') !== text) {
  console.error('the committed weights differ from what this script writes');
  process.exitCode = 1;
}

/**
 * Held-out evaluation of the shipped models through the runtime code path (OnnxNlp), beside
 * baselines measured on the same sentences in the same run. Used by train.ts (to write the
 * cards), eval.ts (to print) and the tests (to check the cards still hold).
 */
import path from 'node:path';
import { ENTITY_TYPES, INTENTS, type EntitySpan, type IntentResult } from '../../electron/core/domains/nlp/contract';
import { detectPhrases, seedPhraseDetector } from '../../electron/core/domains/nlp/phrases';
import { intentGivenSave, isExplicitSave } from '../../electron/core/domains/nlp/activation';
import { heuristicEntities, heuristicIntent } from '../../electron/core/domains/nlp/heuristic';
import { TITLES } from '../../electron/core/domains/nlp/gazetteer';
import type { OnnxNlp } from '../../electron/core/domains/nlp/onnx';
import { readIntentTsv, type IntentExample } from './generate-intent';
import { readAnnotated, type NerExample, type Span } from './generate-ner';
import { classification, ece, prf, r4, spanMetrics } from './metrics';

/** The first in-sample dev set (written alongside the v1 generator). */
export const evalFiles = (corporaDir: string) => ({
  intent: path.join(corporaDir, 'intent', 'eval.tsv'),
  ner: path.join(corporaDir, 'ner', 'eval.txt'),
});

/** The second dev set, written before the v2 generator in another register. */
export const devFiles = (corporaDir: string) => ({
  intent: path.join(corporaDir, 'dev', 'intent.tsv'),
  ner: path.join(corporaDir, 'dev', 'ner.txt'),
});

/** The fourth dev set (dev3), written before the v4 changes in chat, e-mail, dictation and note registers. */
export const dev3Files = (corporaDir: string) => ({
  intent: path.join(corporaDir, 'dev3', 'intent.tsv'),
  ner: path.join(corporaDir, 'dev3', 'ner.txt'),
});

function saveMetrics(examples: readonly IntentExample[], pred: readonly boolean[]) {
  const pos = examples.map((e, i) => ({ e, p: pred[i] }));
  const tp = pos.filter((x) => x.e.explicitSave && x.p).length;
  const fn = pos.filter((x) => x.e.explicitSave && !x.p).length;
  const fp = pos.filter((x) => !x.e.explicitSave && x.p).length;
  const hard = pos.filter((x) => x.e.tags.includes('hardneg'));
  const negatives = pos.filter((x) => !x.e.explicitSave);
  return {
    ...prf(tp, fp, fn),
    hard_negative_fp_rate: r4(hard.filter((x) => x.p).length / Math.max(1, hard.length)),
    hard_negatives: hard.length,
    negatives: negatives.length,
    fp_rate: r4(negatives.filter((x) => x.p).length / Math.max(1, negatives.length)),
    missed: pos.filter((x) => x.e.explicitSave && !x.p).map((x) => x.e.text),
    false_alarms: negatives.filter((x) => x.p).map((x) => x.e.text),
  };
}

export async function evaluateIntent(nlp: OnnxNlp, examples: readonly IntentExample[]) {
  const raw: IntentResult[] = await nlp.intentBatch(examples.map((e) => e.text));
  const phrases = examples.map((e) => detectPhrases(e.text));
  // The same decisions analyze_message makes: the save decision, then the intent it implies.
  const saves = raw.map((r, i) => isExplicitSave(r.explicitSave, phrases[i], r.intent));
  const results = raw.map((r, i) => intentGivenSave(r, saves[i]));
  const gold = examples.map((e) => e.intent);
  const pred = results.map((r) => r.intent);
  const base = examples.map((e) => heuristicIntent(e.text).intent);
  const urgGold = examples.map((e) => e.urgency);
  const urgPred = results.map((r) => r.urgency?.label ?? 'normal');
  const urgBase = examples.map((e) => heuristicIntent(e.text).urgency?.label ?? 'normal');
  return {
    examples: examples.length,
    intent: classification(gold, pred, INTENTS),
    intent_ece: ece(results.map((r) => r.confidence), results.map((r, i) => r.intent === gold[i])),
    intent_baseline: { name: 'keyword rules (heuristic fallback)', ...classification(gold, base, INTENTS) },
    explicit_save: saveMetrics(examples, saves),
    explicit_save_model_only: saveMetrics(examples, results.map((r) => (r.explicitSave ?? 0) >= 0.5)),
    explicit_save_baseline: { name: "seed's regex phrase detector", ...saveMetrics(examples, examples.map((e) => seedPhraseDetector(e.text).saveRequest)) },
    urgency: classification(urgGold, urgPred, ['low', 'normal', 'high']),
    urgency_baseline: { name: 'keyword rules', ...classification(urgGold, urgBase, ['low', 'normal', 'high']) },
    errors: examples.map((e, i) => ({ e, p: pred[i] })).filter((x) => x.e.intent !== x.p).map((x) => `${x.e.intent} → ${x.p}: ${x.e.text}`),
  };
}

type CompromiseDoc = {
  people(): CompromiseView;
  organizations(): CompromiseView;
  places(): CompromiseView;
  match(m: string): CompromiseView;
};
type CompromiseView = { json(opts: object): Array<{ text: string; offset: { start: number; length: number } }> };

/** compromise's people/organizations/places/#Date/#Time, trimmed to our span conventions. */
async function compromiseEntities(): Promise<((text: string) => Span[]) | undefined> {
  let nlp: (text: string) => CompromiseDoc;
  try {
    nlp = (await import('compromise')).default as unknown as (text: string) => CompromiseDoc;
  } catch {
    return undefined;
  }
  return (text) => {
    const doc = nlp(text);
    const out: Span[] = [];
    const add = (view: CompromiseView, type: Span['type']) => {
      for (const m of view.json({ offset: true, text: true, terms: false })) {
        let s = m.offset.start;
        let e = s + m.offset.length;
        let t = text.slice(s, e);
        const lead = /^(?:the\s+|(?:\S+\s+)?)/i.exec(t);
        const firstWord = t.split(/\s+/)[0]?.toLowerCase();
        if (firstWord && TITLES.has(firstWord) && t.includes(' ')) s += t.indexOf(' ') + 1;
        else if (lead && /^the\s+/i.test(t)) s += lead[0].length;
        t = text.slice(s, e);
        while (e > s && /[.,!?;:'")\]]/.test(text[e - 1]) && !(type === 'ORG' && /\b(?:Inc|Corp|Ltd|Co)\.$/.test(t))) e--;
        if (e > s) out.push({ start: s, end: e, type });
      }
    };
    add(doc.people(), 'PERSON');
    add(doc.organizations(), 'ORG');
    add(doc.places(), 'GPE');
    add(doc.match('#Time+'), 'TIME');
    const times = new Set(out.filter((x) => x.type === 'TIME').map((x) => `${x.start}:${x.end}`));
    const before = out.length;
    add(doc.match('#Date+'), 'DATE');
    return out.filter((x, i) => i < before || !times.has(`${x.start}:${x.end}`));
  };
}

export async function evaluateNer(nlp: OnnxNlp, examples: readonly NerExample[]) {
  const gold = examples.map((e) => e.spans);
  const pred: EntitySpan[][] = [];
  for (const e of examples) pred.push(await nlp.entities(e.text));
  const comp = await compromiseEntities();
  return {
    sentences: examples.length,
    entities: gold.reduce((n, g) => n + g.length, 0),
    ...spanMetrics(gold, pred, ENTITY_TYPES),
    baseline: comp ? { name: 'compromise 14 (people/organizations/places/#Date/#Time)', ...spanMetrics(gold, examples.map((e) => comp(e.text)), ENTITY_TYPES) } : { name: 'compromise not installed' },
    heuristic: { name: 'gazetteer + shape rules (heuristic fallback)', ...spanMetrics(gold, examples.map((e) => heuristicEntities(e.text)), ENTITY_TYPES) },
    errors: examples
      .map((e, i) => {
        const k = (s: Span) => `${e.text.slice(s.start, s.end)}/${s.type}`;
        const g = new Set(gold[i].map(k));
        const p = new Set(pred[i].map(k));
        const missed = [...g].filter((x) => !p.has(x));
        const extra = [...p].filter((x) => !g.has(x));
        return missed.length || extra.length ? `${e.text}\n    missed: ${missed.join(', ')}  extra: ${extra.join(', ')}` : '';
      })
      .filter(Boolean),
  };
}

export async function evaluateAll(nlp: OnnxNlp, corporaDir: string) {
  const files = evalFiles(corporaDir);
  return {
    intent: await evaluateIntent(nlp, readIntentTsv(files.intent)),
    ner: await evaluateNer(nlp, readAnnotated(files.ner)),
  };
}

/**
 * Where the explicit-save decision misses on leave-one-set-out, by structure rather than by
 * sentence. Reads the records `models/train/loso.ts --dump FILE` writes (each left-out message with
 * the head's probability and the detector's state) and prints, per weighting and set:
 *  - which branch of isExplicitSave (activation.ts) decided each miss: vetoed (negated/question-
 *    bound save word), weak phrase with head < 0.01, or no phrase and head under the threshold;
 *  - the misses' surface structure (edit imperative, trailing keep clause, marker, first-person
 *    "I want you (to) remember", plain statement);
 *  - recall / FP of the no-phrase branch for head thresholds 0.5–0.95 (the shipped value is 0.8).
 *
 *   npx tsx bench/_save-misses.ts /tmp/save-dump.json [--weighting "12 rows/line (1 literal + variants)"] [--list] [--redetect]
 */
import fs from 'node:fs';
import type { SaveRecord } from '../models/train/loso';
import { detectPhrases } from '../electron/core/domains/nlp/phrases';
import { EXPLICIT_SAVE_THRESHOLD, EXPLICIT_SAVE_THRESHOLD_QUESTION, WEAK_PHRASE_THRESHOLD } from '../electron/core/domains/nlp/activation';

type Rec = SaveRecord;

const STRICT = new Set(['QUESTION', 'GREETING', 'RECALL_INFO']);
const decide = (r: Rec, t: number, tq: number) => (r.strong ? true : r.weak ? r.head >= WEAK_PHRASE_THRESHOLD : r.negated ? false : r.head >= (STRICT.has(r.intent) ? tq : t));
const branch = (r: Rec) => (r.strong ? 'strong phrase' : r.weak ? 'weak phrase, head < 0.01' : r.negated ? 'vetoed (negated / question / task)' : 'no phrase, head under threshold');

/** Surface structure of a message that asks to be kept (descriptive categories for counting, not rules). */
function structure(text: string): string {
  const t = text.toLowerCase();
  if (/\b(?:update|change|correct|amend|modify|overwrite|revise|fix|replace|swap)\b[^.?!]{0,40}\b(?:my|the|your|what|it|this|that)\b/.test(t) || /\b(?:swap|change|fix|correct|update) (?:it|that|this)(?: in)?\b/.test(t)) return 'edit imperative (update/change/correct/amend … target)';
  if (/[,.;!—-]\s*(?:please\s+|pls\s+)?(?:keep|save|store|log|note|remember|hang on to|hold on to)\s+(?:it|that|this|the new one|them)\b/.test(t)) return 'trailing keep clause (", keep that")';
  if (/\bi (?:want|need|would like|'d like) you (?:to )?(?:remember|know|keep|note)\b|\byou should know\b/.test(t)) return 'first-person wish ("I want you (to) remember", "you should know")';
  if (/\b(?:for (?:later|future|next time|the record)|for future ref\w*|something to (?:hang on to|keep|remember))\b/.test(t)) return 'marker (for later / for future ref… / something to keep)';
  if (/\b(?:remember|note|save|keep|log|jot|store|file|pin|stash|tuck|memori[sz]e)\b/.test(t)) return 'other save verb';
  return 'no save word (statement only)';
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: bench/_save-misses.ts DUMP.json [--weighting LABEL] [--list]');
  // --redetect: the detector's state read again with the current code (the head's probabilities stay as dumped).
  const redetect = process.argv.includes('--redetect');
  const all = (JSON.parse(fs.readFileSync(file, 'utf8')) as Rec[]).map((r) => {
    if (!redetect) return r;
    const ph = detectPhrases(r.text);
    return { ...r, strong: ph.saveStrong, weak: ph.saveRequest, negated: ph.saveNegated };
  });
  const wi = process.argv.indexOf('--weighting');
  const only = wi >= 0 ? process.argv[wi + 1] : undefined;
  const list = process.argv.includes('--list');
  const weightings = [...new Set(all.map((r) => r.weighting))].filter((w) => !only || w === only);
  for (const w of weightings) {
    const recs = all.filter((r) => r.weighting === w);
    process.stdout.write(`\n== ${w}\n`);
    for (const set of [...new Set(recs.map((r) => r.set))]) {
      const rs = recs.filter((r) => r.set === set);
      const pos = rs.filter((r) => r.gold);
      const neg = rs.filter((r) => !r.gold);
      const miss = pos.filter((r) => !decide(r, EXPLICIT_SAVE_THRESHOLD, EXPLICIT_SAVE_THRESHOLD_QUESTION));
      const count = (xs: Rec[], f: (r: Rec) => string) => Object.entries(xs.reduce<Record<string, number>>((m, r) => ({ ...m, [f(r)]: (m[f(r)] ?? 0) + 1 }), {})).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`).join('; ');
      process.stdout.write(`${set}: ${pos.length - miss.length}/${pos.length} saves caught, ${neg.filter((r) => decide(r, EXPLICIT_SAVE_THRESHOLD, EXPLICIT_SAVE_THRESHOLD_QUESTION)).length}/${neg.length} false alarms\n`);
      process.stdout.write(`  misses by branch: ${count(miss, branch)}\n`);
      process.stdout.write(`  misses by structure: ${count(miss, (r) => structure(r.text))}\n`);
      const noPhrase = miss.filter((r) => !r.strong && !r.weak && !r.negated).map((r) => r.head).sort((a, b) => a - b);
      process.stdout.write(`  head on no-phrase misses: ${noPhrase.map((h) => h.toFixed(2)).join(' ')}\n`);
      if (list) for (const r of miss) process.stdout.write(`    [${branch(r)} | ${r.intent} ${r.head.toFixed(2)}] ${r.text}\n`);
    }
    process.stdout.write('  no-phrase head threshold (questions/greetings/recall stay at 0.95): recall / FP per set\n');
    for (const t of [0.5, 0.6, 0.7, 0.8, 0.9]) {
      const row = [...new Set(recs.map((r) => r.set))].map((set) => {
        const rs = recs.filter((r) => r.set === set);
        const pos = rs.filter((r) => r.gold);
        const neg = rs.filter((r) => !r.gold);
        return `${set} ${(pos.filter((r) => decide(r, t, EXPLICIT_SAVE_THRESHOLD_QUESTION)).length / pos.length).toFixed(3)} / ${(neg.filter((r) => decide(r, t, EXPLICIT_SAVE_THRESHOLD_QUESTION)).length / neg.length).toFixed(3)}`;
      });
      process.stdout.write(`    ${t.toFixed(2)}: ${row.join(' | ')}\n`);
    }
  }
}

main();

/**
 * Filing accuracy and calibration on tests/fixtures/vault-eval: Mailroom's analysis against the
 * ADR-007 sketch (capitalised words → search → folder vote), on the same index.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { VaultIndex, catchUp, normalizeRel, resolveInVault } from '../electron/core/domains/vault';
import { analyzeOne, parseRules, defaultRules, RULES_PATH, type AnalysisItem } from '../electron/core/domains/inbox';
import type { Nlp } from '../electron/core/domains/nlp';

export const FIXTURE = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'tests', 'fixtures', 'vault-eval');

export interface Judged {
  path: string;
  gold: string;
  action: string;
  destination: string | null;
  confidence: number;
  correct: boolean;
}

const folderOf = (p: string | null) => (p ? path.posix.dirname(p) : '');

export function judge(gold: string, action: string, destination: string | null): boolean {
  if (gold === 'delete') return action === 'delete';
  if (gold.startsWith('merge:')) return action === 'merge' && destination === gold.slice(6);
  return (action === 'move' || action === 'keep') && folderOf(destination) === gold;
}

/** The ADR's sketch, as written: capitalised phrases + hashtags, top 5, search each, vote parent folders. */
export function adrSketch(index: VaultIndex, rel: string, text: string): { action: string; destination: string | null; confidence: number } {
  const capitalized = text.match(/[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*/g) || [];
  const hashtags = text.match(/#\w+/g)?.map((t) => t.slice(1)) || [];
  const entities = [...new Set([...capitalized, ...hashtags])].filter((e) => !['The', 'This', 'That', 'Monday', 'Tuesday'].includes(e)).slice(0, 5);
  const counts: Record<string, number> = {};
  for (const e of entities) {
    for (const h of index.search(e, { limit: 3, excludeFolder: 'inbox' })) {
      const parts = h.path.split('/');
      parts.pop();
      const f = parts.join('/');
      if (f) counts[f] = (counts[f] ?? 0) + 1;
    }
  }
  const top = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
  const title = /^#\s+(.+)$/m.exec(text)?.[1] ?? path.posix.basename(rel, '.md');
  return top
    ? { action: 'move', destination: `${top[0]}/${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.md`, confidence: Math.min(0.5 + top[1] * 0.15, 0.95) }
    : { action: 'keep', destination: null, confidence: 0.3 };
}

export interface EvalResult {
  ours: Judged[];
  baseline: Judged[];
  notes: number;
}

export async function evaluateFiling(opts: { nlp?: Nlp } = {}): Promise<EvalResult> {
  const vault = path.join(FIXTURE, 'vault');
  const gold = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'gold.json'), 'utf8')) as Record<string, string>;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-eval-'));
  const index = new VaultIndex(path.join(tmp, 'index.db'));
  try {
    const report = catchUp(index, vault);
    const rulesFile = path.join(vault, RULES_PATH);
    const rules = fs.existsSync(rulesFile) ? parseRules(fs.readFileSync(rulesFile, 'utf8')) : defaultRules();
    const api = { root: vault, index, resolve: (rel: string) => resolveInVault(vault, normalizeRel(rel)) };
    const ours: Judged[] = [];
    const baseline: Judged[] = [];
    const taken = new Set<string>();
    for (const [rel, g] of Object.entries(gold)) {
      const text = fs.readFileSync(path.join(vault, rel), 'utf8');
      const d = await analyzeOne(rel, text, { vault: api, nlp: opts.nlp, rules, now: Date.parse('2026-02-05T12:00:00Z'), taken });
      const i: AnalysisItem = d.item;
      ours.push({ path: rel, gold: g, action: i.suggested_action, destination: i.destination, confidence: i.confidence, correct: judge(g, i.suggested_action, i.destination) });
      const b = adrSketch(index, rel, text);
      baseline.push({ path: rel, gold: g, ...b, correct: judge(g, b.action, b.destination) });
    }
    return { ours, baseline, notes: report.scanned - Object.keys(gold).length };
  } finally {
    index.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export const accuracy = (xs: Judged[]) => (xs.length ? xs.filter((x) => x.correct).length / xs.length : NaN);

export const BUCKETS: Array<[number, number]> = [
  [0, 0.5],
  [0.5, 0.7],
  [0.7, 0.8],
  [0.8, 0.9],
  [0.9, 1.01],
];

export function calibration(xs: Judged[]): Array<{ bucket: string; n: number; correct: number; accuracy: number }> {
  return BUCKETS.map(([lo, hi]) => {
    const inB = xs.filter((x) => x.confidence >= lo && x.confidence < hi);
    const correct = inB.filter((x) => x.correct).length;
    return { bucket: `${lo.toFixed(1)}–${Math.min(hi, 1).toFixed(1)}`, n: inB.length, correct, accuracy: inB.length ? correct / inB.length : NaN };
  });
}

export const highConfidence = (xs: Judged[], at = 0.8) => {
  const hi = xs.filter((x) => x.confidence >= at);
  return { n: hi.length, accuracy: accuracy(hi) };
};

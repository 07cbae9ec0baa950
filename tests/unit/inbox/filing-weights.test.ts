import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VaultIndex, catchUp, normalizeRel, resolveInVault } from '../../../electron/core/domains/vault';
import { analyzeOne, defaultRules, parseRules } from '../../../electron/core/domains/inbox';
import { FEATURE_NAMES, loadFilingWeights, parseFilingWeights, WEIGHTS_FILE, type FilingWeights } from '../../../electron/core/domains/inbox/filing-model';
import { FIXTURE, REPO_ROOT } from '../../../bench/_vault-eval';
import { tempDir, writeFiles } from '../../helpers/owner';

/**
 * The learned filing weights (models/filing-weights.json, written by `npm run train:filing`): they load,
 * every weight is named and finite, a broken file falls back to the hand values, and what the person
 * wrote (a rule) still decides; confidence is never ≥ 0.8 without evidence.
 */
const now = Date.parse('2026-02-05T12:00:00Z');
const indexes: VaultIndex[] = [];
afterEach(() => {
  for (const i of indexes.splice(0)) i.close();
});

function open(root: string) {
  const index = new VaultIndex(path.join(tempDir('mailroom-fw-idx-'), 'index.db'));
  indexes.push(index);
  catchUp(index, root);
  return { root, index, resolve: (rel: string) => resolveInVault(root, normalizeRel(rel)) };
}

const shipped = (): FilingWeights => {
  const w = loadFilingWeights(REPO_ROOT);
  if (!w) throw new Error(`models/${WEIGHTS_FILE} did not load`);
  return w;
};

describe('the shipped filing weights', () => {
  it('load, name every feature and hold only finite numbers', () => {
    const raw = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'models', WEIGHTS_FILE), 'utf8')) as { ranker: Record<string, number>; trained_on: string[] };
    expect(Object.keys(raw.ranker).sort()).toEqual([...FEATURE_NAMES].sort());
    expect(raw.trained_on.length).toBeGreaterThanOrEqual(9);
    const w = shipped();
    expect(w.ranker).toHaveLength(FEATURE_NAMES.length);
    expect([...w.ranker, ...Object.values(w.thresholds)].every(Number.isFinite)).toBe(true);
  });

  it('a broken or incomplete file is refused (analysis falls back to the hand values)', () => {
    expect(parseFilingWeights('{not json')).toBeUndefined();
    const good = fs.readFileSync(path.join(REPO_ROOT, 'models', WEIGHTS_FILE), 'utf8');
    const missing = JSON.parse(good) as { ranker: Record<string, number> };
    delete missing.ranker[FEATURE_NAMES[0] ?? ''];
    expect(parseFilingWeights(JSON.stringify(missing))).toBeUndefined();
    const nan = JSON.parse(good) as { thresholds: Record<string, unknown> };
    nan.thresholds.keep = 'x';
    expect(parseFilingWeights(JSON.stringify(nan))).toBeUndefined();
    expect(loadFilingWeights(tempDir('mailroom-fw-none-'))).toBeUndefined();
  });

  it('a rule the person wrote still decides, against the words of another folder', async () => {
    const root = tempDir('mailroom-fw-vault-');
    writeFiles(root, {
      '_brain_config/inbox_rules.md': '# Rules\n\n## Loose rules\n\n- anything about the kiln → studio/ceramics/\n',
      'garden/greenhouse.md': '# Greenhouse\n\nPotting compost and seedlings in the greenhouse; the compost heap needs turning.\n',
      'studio/ceramics/bisque.md': '# Bisque firing\n\nCones and schedules for the bisque firing.\n',
      'inbox/kiln.md': '# Kiln\n\nThe kiln needs new elements; the compost heap is right next to it.\n',
    });
    const vault = open(root);
    const rules = parseRules(fs.readFileSync(path.join(root, '_brain_config/inbox_rules.md'), 'utf8'));
    const text = fs.readFileSync(path.join(root, 'inbox/kiln.md'), 'utf8');
    const d = await analyzeOne('inbox/kiln.md', text, { vault, rules, now, weights: shipped() });
    expect(d.item.suggested_action).toBe('move');
    expect(d.item.destination?.startsWith('studio/ceramics/')).toBe(true);
    expect(d.item.rules_matched.length).toBe(1);
    // Without the rule the same words go to the garden: the rule, not the words, decided.
    const without = await analyzeOne('inbox/kiln.md', text, { vault, rules: defaultRules(), now, weights: shipped() });
    expect(without.item.destination?.startsWith('garden/')).toBe(true);
  });

  it('never claims ≥ 0.8 without evidence, nor on word overlap alone', async () => {
    const root = path.join(FIXTURE, 'vault');
    const vault = open(root);
    const run = (text: string) => analyzeOne('inbox/probe.md', text, { vault, rules: defaultRules(), now, weights: shipped() });
    const none = await run('# Zorblax\n\nQuixotic vellichor susurrus, petrichor and apricity.\n');
    expect(none.item.suggested_action).toBe('keep');
    expect(none.item.confidence).toBe(0);
    const vocab = [...new Set(fs.readFileSync(path.join(root, 'home/garden', fs.readdirSync(path.join(root, 'home/garden'))[0] ?? ''), 'utf8').match(/\b[a-z]{4,}\b/g) ?? [])];
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let weakOnly = 0;
    for (let i = 0; i < 20; i++) {
      const words = Array.from({ length: 8 }, () => vocab[Math.floor(rnd() * vocab.length)]);
      const d = await run(`# note\n\n${words.join(' ')}\n`);
      const strong = d.evidence.some((e) => ['rule', 'hint', 'examples', 'named', 'entity', 'person', 'link'].includes(e.kind) && e.share > 0);
      if (!strong) {
        weakOnly++;
        expect(d.item.confidence, words.join(' ')).toBeLessThan(0.8);
      }
    }
    expect(weakOnly).toBeGreaterThanOrEqual(5);
  });
});

/**
 * Vault + inbox benchmarks: cold index of a generated 5,000-note vault vs reading the same files,
 * search p95 vs a full scan, file change → searchable p95, inbox_analyze of 20 items, and filing
 * accuracy / calibration vs the ADR-007 sketch on the labelled fixture.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile, ratio, round, type BenchRow } from './lib';
import { zipf, type Vocabulary } from './_scale-gen';
import { catchUp, listNoteFiles, VaultIndex, createVault } from '../electron/core/domains/vault';
import { createInbox } from '../electron/core/domains/inbox';
import { silentLogger } from '../electron/core/kernel/log';
import type { CoreContext } from '../electron/core/kernel/types';
import { resolveConfig } from '../electron/core/host/config';
import { createNlp } from '../electron/core/domains/nlp';
import { accuracy, calibration, DEV_SET, DEV2_SET, DEV3_SET, BLIND_SETS, DEV4_SET, evaluateSet, FIXTURE, HELDOUT_SETS, highConfidence, keepRate } from './_vault-eval';
import { createCoreContext } from '../electron/core/host/context';

const AREA = 'vault';
const WORDS = 'atlas beacon swim soccer recipe garden boiler invoice receipt kyoto tokyo marathon budget roadmap launch meeting standup design hiring candidate tomato compost ballet piano homework dentist insurance warranty pipeline kafka warehouse migration pricing onboarding metrics flight hotel ramen sushi temple running strength stretching python typescript docker kubernetes postgres index query'.split(' ');

function seeded(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

/** Real text is Zipfian: a few words everywhere, most words rare. 4,000 words, rank-frequency 1/r. */
function vocabulary(): Vocabulary {
  const syl = ['ka', 'lo', 'mi', 'ren', 'tor', 'va', 'shi', 'pel', 'dun', 'ar', 'est', 'qui', 'bo', 'zan', 'fer', 'lin'];
  const words = [...WORDS];
  // Three syllables = three base-16 digits: 4,096 distinct made-up words, in a fixed order.
  for (let i = 0; words.length < 4000; i++) words.push(syl[i % 16] + syl[(i >> 4) % 16] + syl[(i >> 8) % 16]);
  return zipf(words);
}

function generateVault(dir: string, n: number): string[] {
  const rnd = seeded(7);
  const vocab = vocabulary();
  const w = () => vocab.draw(rnd);
  const folders = Array.from({ length: 60 }, (_, i) => `area-${i % 8}/topic-${i}`);
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    const folder = folders[i % folders.length];
    const title = `${w()} ${w()} ${i}`;
    const para = () => Array.from({ length: 40 }, () => w()).join(' ') + '.';
    const text = `---\ntitle: ${title}\naliases: [${w()}-${i}]\ntags: [${w()}, ${w()}]\ncreated: 2025-01-${String((i % 28) + 1).padStart(2, '0')}\n---\n# ${title}\n\n${para()}\n\nSee [[${w()} ${w()} ${(i * 7) % n}]] and #${w()}.\n\n${para()}\n\n${para()}\n`;
    const p = path.join(dir, folder, `note-${i}.md`);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
    texts.push(text);
  }
  return vocab.words;
}

function ctxFor(dataDir: string, vaultDir: string): CoreContext {
  return createCoreContext(resolveConfig({ dataDir, vault: vaultDir, env: {}, appRoot: path.resolve(FIXTURE, '..', '..', '..') }), { broadcast() {} }, {
    log: silentLogger(),
    platform: { kind: 'headless', notify() {}, setBadge() {}, badges: () => ({}), secrets: { encrypt: (s) => s, decrypt: (s) => s } },
  }).ctx;
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-vault-'));
  try {
    // 1. Cold index vs raw read.
    const big = path.join(tmp, 'big');
    const vocab = generateVault(big, 5000);
    const tRead = performance.now();
    let bytes = 0;
    for (const rel of listNoteFiles(big)) bytes += fs.readFileSync(path.join(big, rel), 'utf8').length;
    const readMs = performance.now() - tRead;
    const index = new VaultIndex(path.join(tmp, 'index.db'));
    const tIdx = performance.now();
    const rep = catchUp(index, big);
    const idxMs = performance.now() - tIdx;
    rows.push({ area: AREA, figure: `cold index, ${rep.indexed} notes (${Math.round(bytes / 1e6)} MB)`, value: round(idxMs, 0), unit: 'ms', baseline: round(readMs, 0), baseline_label: 'raw read', ratio: ratio(idxMs, readMs), goal: '≤ 3× and ≤ 5000 ms', pass: idxMs <= 5000 && idxMs / readMs <= 3 });

    // 2. Search p95 vs a full scan (no ripgrep here: an in-process scan of the files).
    // Queries people type: topic words (mid-frequency ranks), two-word queries, a phrase, a prefix.
    const rnd = seeded(11);
    const mid = () => vocab[50 + Math.floor(rnd() * 1500)];
    const queries = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? `"${mid()} ${mid()}"` : i % 3 === 1 ? `${mid().slice(0, 4)}*` : `${mid()} ${mid()}`));
    const searchMs: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      index.search(q, { limit: 10 });
      searchMs.push(performance.now() - t);
    }
    const files = listNoteFiles(big);
    const scanMs: number[] = [];
    for (const q of queries.slice(0, 15)) {
      const needle = q.replace(/["*]/g, '').toLowerCase();
      const t = performance.now();
      const hits: string[] = [];
      for (const rel of files) if (fs.readFileSync(path.join(big, rel), 'utf8').toLowerCase().includes(needle)) hits.push(rel);
      scanMs.push(performance.now() - t);
    }
    const sP95 = percentile(searchMs, 95);
    const scanP95 = percentile(scanMs, 95);
    rows.push({ area: AREA, figure: 'search p95 (5,000 notes)', value: round(sP95, 2), unit: 'ms', baseline: round(scanP95, 1), baseline_label: 'full scan', ratio: ratio(sP95, scanP95), goal: '≥ 20× faster', pass: scanP95 / sP95 >= 20 });
    index.close();

    // 3. File change → searchable (real chokidar on the labelled vault).
    const live = path.join(tmp, 'live');
    fs.cpSync(path.join(FIXTURE, 'vault'), live, { recursive: true });
    const dataDir = path.join(tmp, 'data');
    fs.mkdirSync(dataDir);
    const ctx = ctxFor(dataDir, live);
    const vault = createVault(ctx, { gitInit: false });
    await vault.start?.();
    const lat: number[] = [];
    for (let i = 0; i < 20; i++) {
      const rel = `bench/change-${i}.md`;
      const token = `zq${i}marker`;
      const seen = new Promise<void>((resolve) => {
        const off = ctx.events.on<{ paths: string[] }>('vault:changed', (p) => {
          if (p.paths.includes(rel) && vault.search(token).length) {
            off();
            resolve();
          }
        });
      });
      const t = performance.now();
      fs.mkdirSync(path.join(live, 'bench'), { recursive: true });
      fs.writeFileSync(path.join(live, rel), `# Change ${i}\n\n${token}\n`);
      await seen;
      lat.push(performance.now() - t);
    }
    const cP95 = percentile(lat, 95);
    rows.push({ area: AREA, figure: 'file change → searchable p95', value: round(cP95, 0), unit: 'ms', goal: '≤ 250 ms', pass: cP95 <= 250 });

    // 4. inbox_analyze of 20 items (with the on-device models when they load).
    const nlp = await createNlp(ctx);
    const inbox = createInbox(ctx, { vault, nlp });
    const warm = await inbox.analyze({ limit: 20 });
    const times: number[] = [];
    let result = warm;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      result = await inbox.analyze({ limit: 20 });
      times.push(performance.now() - t);
    }
    const aMs = percentile(times, 50);
    const tokens = JSON.stringify(result).length / 4 / result.items.length;
    rows.push({ area: AREA, figure: `inbox_analyze, 20 items (nlp: ${nlp.backend})`, value: round(aMs, 0), unit: 'ms', goal: '≤ 500 ms', pass: aMs <= 500 });
    rows.push({ area: AREA, figure: 'inbox_analyze response size', value: round(tokens, 0), unit: 'tokens/item', baseline: 125, baseline_label: 'ADR: 2.5k per 20', ratio: ratio(tokens, 125), goal: '≤ 150', pass: tokens <= 150 });
    await vault.stop?.();
    await nlp.stop?.();
    ctx.stateDb.close();

    // 5. Filing on every labelled set: the in-sample fixture, and the held-out set when present.
    for (const [dir, label] of [
      [FIXTURE, 'in-sample'],
      [DEV_SET, 'in-sample dev'],
      [DEV2_SET, 'in-sample dev2'],
      [DEV3_SET, 'in-sample dev3'],
      [DEV4_SET, 'in-sample dev4'],
      ...BLIND_SETS.map((d) => [d, 'blind dev'] as const),
      ...HELDOUT_SETS.map((d) => [d, 'held-out'] as const),
    ]) {
      if (!fs.existsSync(path.join(dir, 'gold.json'))) continue;
      rows.push(...(await filingRows(dir, label)));
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
}

/**
 * Filing rows for one labelled set (`<dir>/vault` + `<dir>/gold.json`): strict top-1 accuracy
 * beside the ADR sketch and a keyword baseline measured in the same run, keep-rate, accuracy at
 * confidence ≥ 0.8, the reliability table, and the learning curve (0/5/10/20 corrections).
 */
export async function filingRows(dir: string, label: string): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  const ev = await evaluateSet(dir, { curve: [0, 5, 10, 20] });
  const tag = `${label} ${ev.set}, ${ev.ours.length} items, ${ev.notes} notes`;
  const ours = accuracy(ev.ours);
  const sketch = accuracy(ev.baseline);
  const keyword = accuracy(ev.keyword);
  // The same analysis with the hand weights (no models/filing-weights.json), same run.
  const hand = accuracy((await evaluateSet(dir, { weights: null })).ours);
  out.push({ area: AREA, figure: `filing strict top-1, learned weights vs hand weights (${label} ${ev.set}; in-sample for the learned weights: see bench/filing-train.ts --loso)`, value: round(ours * 100, 1), unit: '%', baseline: round(hand * 100, 1), baseline_label: 'hand weights' });
  out.push({ area: AREA, figure: `filing strict top-1 (${tag})`, value: round(ours * 100, 1), unit: '%', baseline: round(sketch * 100, 1), baseline_label: 'ADR sketch', ratio: ratio(ours, sketch), goal: '≥ 90%', pass: ours >= 0.9 });
  out.push({ area: AREA, figure: `filing strict top-1, keyword baseline (${label})`, value: round(ours * 100, 1), unit: '%', baseline: round(keyword * 100, 1), baseline_label: 'keyword baseline', ratio: ratio(ours, keyword), goal: 'beat it', pass: ours > keyword });
  const keep = keepRate(ev.ours);
  const goldKeep = ev.ours.filter((x) => x.gold === 'keep').length / Math.max(1, ev.ours.length);
  out.push({ area: AREA, figure: `keep-rate (${label}; gold keep ${round(goldKeep * 100, 1)}%)`, value: round(keep * 100, 1), unit: '%', baseline: round(keepRate(ev.baseline) * 100, 1), baseline_label: 'ADR sketch', goal: '≈ gold keep-rate', pass: Math.abs(keep - goldKeep) <= 0.1 });
  const hi = highConfidence(ev.ours);
  const hiBase = highConfidence(ev.baseline);
  out.push({ area: AREA, figure: `right when confidence ≥ 0.8 (${label}; n=${hi.n}; sketch n=${hiBase.n})`, value: round(hi.accuracy * 100, 1), unit: '%', baseline: round(hiBase.accuracy * 100, 1), baseline_label: 'ADR sketch', goal: '≥ 90%', pass: hi.n > 0 && hi.accuracy >= 0.9 });
  for (const b of calibration(ev.ours)) {
    out.push({ area: AREA, figure: `reliability ${b.bucket} (${label}; n=${b.n}, right ${b.correct})`, value: b.n ? round(b.accuracy * 100, 1) : NaN, unit: '%' });
  }
  out.push({ area: AREA, figure: `right first time, reviewing in order while learning (${label})`, value: round(ev.online * 100, 1), unit: '%', baseline: round(ours * 100, 1), baseline_label: 'no learning' });
  for (const c of ev.curve) {
    out.push({
      area: AREA,
      figure: `after ${c.corrections} corrections (${label}; ${c.reviewed} reviewed, accuracy on the other ${c.rest})`,
      value: round(c.accuracy * 100, 1),
      unit: '%',
      baseline: round(accuracy(ev.ours.slice(c.reviewed)) * 100, 1),
      baseline_label: 'same items, no learning',
    });
  }
  return out;
}

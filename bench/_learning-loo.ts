/**
 * How much earlier decisions can teach, per in-sample set: each item analysed with every OTHER
 * item's gold decision recorded as a review (accepted when the plain analysis was right,
 * corrected otherwise), against the same item with no memory.
 * Run: npx tsx bench/_learning-loo.ts [set-dir …] [--why] [--without-rules]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { VaultIndex, catchUp, normalizeRel, resolveInVault } from '../electron/core/domains/vault';
import { analyzeOne, parseRules, defaultRules, RULES_PATH, type AnalysisItem } from '../electron/core/domains/inbox';
import { ExampleStore } from '../electron/core/domains/inbox/learn';
import { judge, FIXTURE, DEV_SET, DEV2_SET, DEV3_SET, DEV4_SET } from './_vault-eval';

const NOW = Date.parse('2026-02-05T12:00:00Z');
const withoutRules = process.argv.includes('--without-rules');
const named = process.argv.slice(2).filter((a) => !a.startsWith('--')).map((d) => path.resolve(d));
for (const dir of named.length ? named : [FIXTURE, DEV_SET, DEV2_SET, DEV3_SET, DEV4_SET]) {
  const vault = path.join(dir, 'vault');
  const gold = JSON.parse(fs.readFileSync(path.join(dir, 'gold.json'), 'utf8')) as Record<string, string>;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-loo-'));
  const index = new VaultIndex(path.join(tmp, 'index.db'));
  catchUp(index, vault);
  const rulesFile = path.join(vault, RULES_PATH);
  const rules = !withoutRules && fs.existsSync(rulesFile) ? parseRules(fs.readFileSync(rulesFile, 'utf8')) : defaultRules();
  const api = { root: vault, index, resolve: (rel: string) => resolveInVault(vault, normalizeRel(rel)) };
  const items = Object.entries(gold).map(([rel, g]) => ({ rel, g, text: fs.readFileSync(path.join(vault, rel), 'utf8') }));
  const plain: AnalysisItem[] = [];
  for (const x of items) plain.push((await analyzeOne(x.rel, x.text, { vault: api, rules, now: NOW })).item);
  let base = 0;
  let learnt = 0;
  const flips: string[] = [];
  for (const [i, x] of items.entries()) {
    const db = new Database(':memory:');
    const store = new ExampleStore(db, () => NOW);
    store.record(
      items
        .filter((_, j) => j !== i)
        .map((y) => {
          const j = items.indexOf(y);
          const g = y.g;
          const action = g === 'delete' || g === 'keep' ? g : g.startsWith('merge:') ? 'merge' : 'move';
          const ok = judge(g, plain[j].suggested_action, plain[j].destination);
          return {
            batch_id: null,
            path: y.rel,
            title: /^#\s+(.+)$/m.exec(y.text)?.[1] ?? y.rel,
            text: y.text,
            action: action as AnalysisItem['suggested_action'],
            folder: null,
            destination: ok ? plain[j].destination : action === 'move' ? `${g}/` : action === 'merge' ? g.slice(6) : null,
            suggested_action: plain[j].suggested_action,
            suggested_destination: plain[j].destination,
            suggested_confidence: plain[j].confidence,
            origin: 'bench',
          };
        }),
    );
    const it = (await analyzeOne(x.rel, x.text, { vault: api, rules, now: NOW, memory: (p) => store.memory(p) })).item;
    const b = judge(x.g, plain[i].suggested_action, plain[i].destination);
    const l = judge(x.g, it.suggested_action, it.destination);
    base += b ? 1 : 0;
    learnt += l ? 1 : 0;
    if (b !== l) flips.push(`${l ? "+" : "-"}${x.rel}`);
    if (b && !l && process.argv.includes("--why")) console.log(x.rel, it.destination, it.reasoning, it.confidence);
    db.close();
  }
  console.log(`${path.basename(dir).padEnd(10)} n=${items.length} no memory ${((100 * base) / items.length).toFixed(1)}% → with the others' decisions ${((100 * learnt) / items.length).toFixed(1)}%  ${flips.join(' ')}`);
  index.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

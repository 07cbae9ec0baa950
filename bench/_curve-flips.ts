/**
 * The learning curve of one labelled set, item by item: after each correction point, which of the
 * items not yet reviewed changed from right to wrong (or back) compared with no memory, and why.
 * Run: npx tsx bench/_curve-flips.ts <set-dir> [--without-rules]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { VaultIndex, catchUp, normalizeRel, resolveInVault } from '../electron/core/domains/vault';
import { analyzeOne, parseRules, defaultRules, RULES_PATH, type AnalysisItem } from '../electron/core/domains/inbox';
import { ExampleStore } from '../electron/core/domains/inbox/learn';
import { judge } from './_vault-eval';

const NOW = Date.parse('2026-02-05T12:00:00Z');
const dir = path.resolve(process.argv[2] ?? '');
const vault = path.join(dir, 'vault');
const gold = JSON.parse(fs.readFileSync(path.join(dir, 'gold.json'), 'utf8')) as Record<string, string>;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-flips-'));
const index = new VaultIndex(path.join(tmp, 'index.db'));
catchUp(index, vault);
const rulesFile = path.join(vault, RULES_PATH);
const rules = !process.argv.includes('--without-rules') && fs.existsSync(rulesFile) ? parseRules(fs.readFileSync(rulesFile, 'utf8')) : defaultRules();
const api = { root: vault, index, resolve: (rel: string) => resolveInVault(vault, normalizeRel(rel)) };
const items = Object.entries(gold).map(([rel, g]) => ({ rel, g, text: fs.readFileSync(path.join(vault, rel), 'utf8') }));
const plain = new Map<string, AnalysisItem>();
for (const x of items) plain.set(x.rel, (await analyzeOne(x.rel, x.text, { vault: api, rules, now: NOW })).item);
const store = new ExampleStore(new Database(':memory:'), () => NOW);
let corrections = 0;
for (const [i, x] of items.entries()) {
  const item = (await analyzeOne(x.rel, x.text, { vault: api, rules, now: NOW, memory: (p) => store.memory(p) })).item;
  const ok = judge(x.g, item.suggested_action, item.destination);
  const action = x.g === 'delete' || x.g === 'keep' ? x.g : x.g.startsWith('merge:') ? 'merge' : 'move';
  store.record([{ batch_id: null, path: x.rel, title: /^#\s+(.+)$/m.exec(x.text)?.[1] ?? path.posix.basename(x.rel, '.md'), text: x.text, action: action as AnalysisItem['suggested_action'], folder: null, destination: ok ? item.destination : action === 'move' ? `${x.g}/` : action === 'merge' ? x.g.slice(6) : null, suggested_action: item.suggested_action, suggested_destination: item.destination, suggested_confidence: item.confidence, origin: 'bench' }]);
  if (ok) continue;
  corrections++;
  console.log(`#${corrections} at ${i}: ${x.rel} suggested ${item.suggested_action} ${item.destination ?? ''} → gold ${x.g}`);
  if (![5, 10, 20].includes(corrections)) continue;
  for (const y of items.slice(i + 1)) {
    const p0 = plain.get(y.rel)!;
    const p1 = (await analyzeOne(y.rel, y.text, { vault: api, rules, now: NOW, memory: (p) => store.memory(p) })).item;
    const a = judge(y.g, p0.suggested_action, p0.destination);
    const b = judge(y.g, p1.suggested_action, p1.destination);
    if (a !== b) console.log(`   ${b ? 'FIXED' : 'BROKE'} ${y.rel} gold=${y.g} now ${p1.suggested_action} ${p1.destination ?? ''} (${p1.confidence}) — ${p1.reasoning}`);
  }
}
index.close();
fs.rmSync(tmp, { recursive: true, force: true });

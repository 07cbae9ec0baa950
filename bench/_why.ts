/**
 * Why one item of a labelled set was filed where it was: the evidence rows and folder votes,
 * without memory and (with `--loo`) with every other item's gold decision recorded.
 * Run: npx tsx bench/_why.ts <set-dir> <substring of item path> [--loo]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { VaultIndex, catchUp, normalizeRel, resolveInVault } from '../electron/core/domains/vault';
import { analyzeOne, parseRules, RULES_PATH, type AnalysisItem } from '../electron/core/domains/inbox';
import { ExampleStore } from '../electron/core/domains/inbox/learn';
import { judge } from './_vault-eval';

const NOW = Date.parse('2026-02-05T12:00:00Z');
const [dir0 = '', needle = ''] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const dir = path.resolve(dir0);
const vault = path.join(dir, 'vault');
const gold = JSON.parse(fs.readFileSync(path.join(dir, 'gold.json'), 'utf8')) as Record<string, string>;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-why-'));
const index = new VaultIndex(path.join(tmp, 'index.db'));
catchUp(index, vault);
const rulesFile = path.join(vault, RULES_PATH);
const rules = fs.existsSync(rulesFile) ? parseRules(fs.readFileSync(rulesFile, 'utf8')) : parseRules('');
const api = { root: vault, index, resolve: (rel: string) => resolveInVault(vault, normalizeRel(rel)) };
const items = Object.entries(gold).map(([rel, g]) => ({ rel, g, text: fs.readFileSync(path.join(vault, rel), 'utf8') }));
const plain: AnalysisItem[] = [];
for (const x of items) plain.push((await analyzeOne(x.rel, x.text, { vault: api, rules, now: NOW })).item);
for (const [i, x] of items.entries()) {
  if (!x.rel.includes(needle)) continue;
  let memory;
  if (process.argv.includes('--loo')) {
    const store = new ExampleStore(new Database(':memory:'), () => NOW);
    store.record(
      items.flatMap((y, j) => {
        if (j === i) return [];
        const action = y.g === 'delete' || y.g === 'keep' ? y.g : y.g.startsWith('merge:') ? 'merge' : 'move';
        const pj = plain[j]!;
        const ok = judge(y.g, pj.suggested_action, pj.destination);
        return [{ batch_id: null, path: y.rel, title: /^#\s+(.+)$/m.exec(y.text)?.[1] ?? y.rel, text: y.text, action: action as AnalysisItem['suggested_action'], folder: null, destination: ok ? pj.destination : action === 'move' ? `${y.g}/` : action === 'merge' ? y.g.slice(6) : null, suggested_action: pj.suggested_action, suggested_destination: pj.destination, suggested_confidence: pj.confidence, origin: 'bench' }];
      }),
    );
    memory = (p: Parameters<ExampleStore['memory']>[0]) => store.memory(p);
  }
  const d = await analyzeOne(x.rel, x.text, { vault: api, rules, now: NOW, memory });
  console.log(`== ${x.rel} gold=${x.g} → ${d.item.suggested_action} ${d.item.destination ?? ''} ${d.item.confidence}\n   ${d.item.reasoning}\n   entities: ${JSON.stringify(d.item.entity_locations)}`);
  for (const r of d.evidence) console.log(`   ${r.kind.padEnd(10)} top=${r.top} share=${r.share} amount=${r.amount} strength=${r.strength}`);
  console.log('   votes: ' + d.votes.map(([f, v]) => `${f}:${v.toFixed(2)}`).join('  '));
}
index.close();
fs.rmSync(tmp, { recursive: true, force: true });

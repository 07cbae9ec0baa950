/**
 * The folder profiles in process, on the generated vault of _scale-probe (run that first): a cold
 * build, the heap it keeps (after a forced GC), a rebuild after one note changed, the longest
 * event-loop stall of a background build (when this tree has warmProfiles), and the 100-item
 * analysis digest. `node --expose-gc --import tsx bench/_scale-profiles.ts [notes]`; run the same
 * file in another tree for an A/B.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { VaultIndex } from '../electron/core/domains/vault';
import { isDestination } from '../electron/core/domains/inbox/analyze';
import * as profiles from '../electron/core/domains/inbox/profiles';
import { vocabulary } from './_scale-gen';

const N = Number(process.argv[2] ?? 10_000);
const dir = path.join(os.tmpdir(), `mailroom-probe-${N}`);
const root = path.join(dir, 'vault');
const load = () => os.loadavg()[0]!.toFixed(1);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const heap = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1e6;
};
const mb = (x: number) => `${x.toFixed(0)} MB`;
let c0 = process.cpuUsage();
/** CPU time of this process since the last call (the machine is shared: wall time says little). */
const cpu = () => {
  const d = process.cpuUsage(c0);
  c0 = process.cpuUsage();
  return `cpu ${((d.user + d.system) / 1000).toFixed(0)} ms`;
};
const index = new VaultIndex(path.join(dir, 'index.db'));
index.root = root;
const h0 = heap();
let t = performance.now();
cpu();
let p = profiles.folderProfiles(index, isDestination);
console.log(`notes ${N}: cold build ${(performance.now() - t).toFixed(0)} ms, ${cpu()} (${p.docs} notes, ${p.folders.length} folders)  load ${load()}`);
console.log(`  heap and array buffers kept by the profiles ${mb(heap() - h0)}  rss ${mb(process.memoryUsage().rss / 1e6)}  peak rss ${mb(process.resourceUsage().maxRSS / 1e3)}`);
// One note changes: its terms are read again, the rest is rebuilt.
const one = index.all().find((r) => isDestination(r.folder))!;
const text = fs.readFileSync(path.join(root, one.path), 'utf8');
index.upsert(one.path, text + '\nzqprofilechange\n', fs.statSync(path.join(root, one.path)));
t = performance.now();
cpu();
p = profiles.folderProfiles(index, isDestination);
console.log(`  rebuild after one note changed ${(performance.now() - t).toFixed(0)} ms, ${cpu()}  load ${load()}`);
index.upsert(one.path, text, fs.statSync(path.join(root, one.path)));
const warm = (profiles as { warmProfiles?: (i: VaultIndex, a: (f: string) => boolean) => Promise<unknown> }).warmProfiles;
if (warm) {
  // A fresh index object: a cold background build, with the event loop's stalls measured.
  const cold = new VaultIndex(path.join(dir, 'index.db'));
  cold.root = root;
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  t = performance.now();
  cpu();
  await warm(cold, isDestination);
  h.disable();
  console.log(`  background build ${(performance.now() - t).toFixed(0)} ms, ${cpu()}, event-loop delay p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms, max ${(h.max / 1e6).toFixed(1)} ms  load ${load()}`);
  cold.close();
}
const { analyzeForProbe } = await import('./_scale-probe-analyze');
await analyzeForProbe(index, root, vocabulary().words, load);
console.log(`  rss after analyses ${mb(process.memoryUsage().rss / 1e6)}  heap ${mb(heap())}`);
index.close();

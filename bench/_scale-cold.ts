/**
 * Cold index of a real headless owner, with a timeline: process start → HTTP up → indexer
 * progress → ready. `node --import tsx bench/_scale-cold.ts [notes]` (vault from _scale-probe).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startProbeOwner } from './lib';

const N = Number(process.argv[2] ?? 10_000);
const vault = path.join(os.tmpdir(), `mailroom-probe-${N}`, 'vault');
const data = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-cold-'));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MAILROOM_'))) as Record<string, string>;
const t0 = performance.now();
const at = () => (performance.now() - t0).toFixed(0).padStart(6);
const { child, url, token } = await startProbeOwner(vault, data, { env, log: path.join(data, 'owner.log') });
let last = '';
for (;;) {
  const st = (await (await fetch(url.origin + '/api/status', { headers: { authorization: `Bearer ${token}` } })).json()) as { index: { state: string; done: number; total: number } };
  const s = `${st.index.state} ${st.index.done}/${st.index.total}`;
  if (s !== last && (st.index.done % 2000 < 500 || st.index.state !== 'indexing')) console.log(at(), 'ms ', s);
  last = s;
  if (st.index.state === 'ready' || st.index.state === 'failed') break;
  await new Promise((r) => setTimeout(r, 20));
}
console.log(at(), 'ms  ready', `load ${os.loadavg()[0]!.toFixed(1)}`);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
if (!process.env.KEEP) fs.rmSync(data, { recursive: true, force: true }); else console.log(data);

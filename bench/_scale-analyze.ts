/**
 * inbox_analyze of 100 items over MCP against a real headless owner, beside the owner's memory:
 * start → ready, RSS, then the scale bench's 100 inbox items, the first call and three more.
 * `node --import tsx bench/_scale-analyze.ts [notes]` (vault from _scale-probe, or PROBE_DIR);
 * OWNER_PROF=dir writes the owner's CPU profile, WAIT_IDLE=1 lets automatic analysis finish first,
 * PROBE_SEARCH=1 times brain_search for 20 s after the items arrive (then waits like WAIT_IDLE).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generateVault, vocabulary } from './_scale-gen';
import { startProbeOwner } from './lib';

const N = Number(process.argv[2] ?? 10_000);
const dir = process.env.PROBE_DIR ?? path.join(os.tmpdir(), `mailroom-probe-${N}`);
if (!fs.existsSync(path.join(dir, 'done'))) {
  fs.rmSync(dir, { recursive: true, force: true });
  generateVault(path.join(dir, 'vault'), N);
  fs.writeFileSync(path.join(dir, 'done'), '');
}
const vault = path.join(dir, 'vault');
const inboxDir = path.join(vault, 'inbox');
fs.rmSync(inboxDir, { recursive: true, force: true });
const data = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-analyze-'));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MAILROOM_'))) as Record<string, string>;
const load = () => os.loadavg()[0]!.toFixed(1);
const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const t0 = performance.now();
const { child, url, token } = await startProbeOwner(vault, data, { env, log: path.join(data, 'owner.log') });
const api = async <T>(route: string) => (await (await fetch(url.origin + route, { headers: { authorization: `Bearer ${token}` } })).json()) as T;
for (;;) {
  const st = await api<{ index: { state: string } }>('/api/status');
  if (st.index.state === 'ready') break;
  await new Promise((r) => setTimeout(r, 50));
}
console.log(`notes ${N}: ready after ${(performance.now() - t0).toFixed(0)} ms, RSS ${rss(child.pid!).toFixed(0)} MB  load ${load()}`);
// An owner that builds the folder profiles in the background says when they are warm (GET /api/status).
if (!process.env.PROBE_SEARCH && (await api<{ profiles?: unknown }>('/api/status')).profiles) {
  for (;;) {
    const st = await api<{ profiles: { state: string; ms?: number } }>('/api/status');
    if (st.profiles.state === 'warm') {
      console.log(`profiles warm after ${(performance.now() - t0).toFixed(0)} ms (build ${st.profiles.ms} ms), RSS ${rss(child.pid!).toFixed(0)} MB  load ${load()}`);
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
const mcp = new Client({ name: 'analyze', version: '1' });
await mcp.connect(new StreamableHTTPClientTransport(new URL(url.origin + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
const words = vocabulary().words;
fs.mkdirSync(inboxDir, { recursive: true });
for (let i = 0; i < 100; i++) {
  const body = Array.from({ length: 40 }, (_, j) => words[(i * 131 + j * 17) % 3000]).join(' ');
  fs.writeFileSync(path.join(inboxDir, `item-${i}.md`), `# ${words[40 + i]} ${words[400 + i]} notes\n\n${body}\n`);
}
if (process.env.PROBE_SEARCH) {
  // The items arrive right after start: how the owner answers brain_search meanwhile (the folder
  // profiles being built, on the request path's loop or in background slices), for 20 s.
  const lat: number[] = [];
  const until = performance.now() + 20_000;
  const q = ['alpha', 'garden', 'soccer', 'compost'];
  for (let i = 0; performance.now() < until; i++) {
    const t = performance.now();
    await mcp.callTool({ name: 'brain_search', arguments: { query: q[i % 4] } });
    lat.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  lat.sort((a, b) => a - b);
  const at = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))]!.toFixed(0);
  console.log(`brain_search while the items are analysed: ${lat.length} calls, p50 ${at(50)} ms, p95 ${at(95)} ms, max ${lat[lat.length - 1]!.toFixed(0)} ms  load ${load()}`);
}
if (process.env.WAIT_IDLE || process.env.PROBE_SEARCH) {
  // The inbox page's list waits for the automatic analysis of new items.
  for (;;) {
    const l = await api<{ count: number }>('/api/inbox');
    if (l.count >= 100) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`automatic analysis done after ${(performance.now() - t0).toFixed(0)} ms`);
}
const call = async () => {
  const t = performance.now();
  const r = (await mcp.callTool({ name: 'inbox_analyze', arguments: { limit: 100 } }, undefined, { timeout: 600_000 })) as { structuredContent?: { items: Array<{ suggested_action: string; destination: string | null; confidence: number }> } };
  const items = r.structuredContent?.items ?? [];
  return { ms: performance.now() - t, n: items.length, digest: digest(items.map((i) => `${i.suggested_action}:${i.destination}:${i.confidence}`).join('\n')) };
};
const first = await call();
console.log(`inbox_analyze first call ${first.ms.toFixed(0)} ms (${first.n} items, digest ${first.digest})  RSS ${rss(child.pid!).toFixed(0)} MB  load ${load()}`);
const later: number[] = [];
for (let i = 0; i < 3; i++) {
  const r = await call();
  later.push(r.ms);
  console.log(`inbox_analyze call ${i + 2}: ${r.ms.toFixed(0)} ms (${r.n} items, digest ${r.digest})  load ${load()}`);
}
console.log(`median of 3: ${later.sort((a, b) => a - b)[1]!.toFixed(0)} ms  RSS ${rss(child.pid!).toFixed(0)} MB  peak ${(Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024).toFixed(0)} MB`);
if (process.env.STATUS) console.log(JSON.stringify(await api('/api/status')));
await mcp.close();
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
fs.rmSync(inboxDir, { recursive: true, force: true });
if (!process.env.KEEP) fs.rmSync(data, { recursive: true, force: true });
else console.log(data);

function digest(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

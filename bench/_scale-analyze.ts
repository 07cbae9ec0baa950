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
// INSPECT=1 (run this script with node --experimental-websocket): the owner's heap figures after filing, before and after a forced GC.
if (process.env.INSPECT) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:0`;
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
if (process.env.INSPECT) {
  const wsUrl = /Debugger listening on (ws:\S+)/.exec(fs.readFileSync(path.join(data, 'owner.log'), 'utf8'))?.[1];
  const ws = new (globalThis as unknown as { WebSocket: new (u: string) => { send(s: string): void; close(): void; onopen: () => void; onmessage: (e: { data: string }) => void } }).WebSocket(wsUrl!);
  let id = 0;
  const pending = new Map<number, (r: unknown) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  };
  await new Promise<void>((r) => (ws.onopen = r));
  const send = (method: string, params: object = {}) => new Promise<unknown>((r) => { pending.set(++id, r); ws.send(JSON.stringify({ id, method, params })); });
  const mem = async () => {
    const r = (await send('Runtime.evaluate', { expression: `JSON.stringify({ ...process.memoryUsage(), ...process.getBuiltinModule('v8').getHeapStatistics() })`, returnByValue: true })) as { result: { value: string } };
    const m = JSON.parse(r.result.value) as Record<string, number>;
    const f = (k: string) => `${k} ${((m[k] ?? 0) / 1048576).toFixed(0)}`;
    return [f('rss'), f('heapTotal'), f('heapUsed'), f('external'), f('arrayBuffers'), f('malloced_memory'), f('peak_malloced_memory')].join(', ') + ' MB';
  };
  console.log(`owner memory after filing: ${await mem()}`);
  await send('HeapProfiler.collectGarbage');
  await send('HeapProfiler.collectGarbage');
  console.log(`owner memory after a forced GC: ${await mem()}`);
  ws.close();
}
if (process.env.SMAPS) {
  // Where the owner's resident memory is: the V8 heap's pages, malloc's heap and arenas, mapped files.
  const kinds = new Map<string, number>();
  let kind = '';
  for (const line of fs.readFileSync(`/proc/${child.pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) kind = head[1] ? (head[1].startsWith('/') ? (head[1].endsWith('.node') || head[1].includes('/node') ? 'code and native modules' : 'mapped files') : head[1]) : 'anonymous';
    const rssKb = /^Rss:\s+(\d+) kB/.exec(line);
    if (rssKb) kinds.set(kind, (kinds.get(kind) ?? 0) + Number(rssKb[1]));
  }
  console.log('RSS by mapping: ' + [...kinds].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} MB`).join(', '));
}
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

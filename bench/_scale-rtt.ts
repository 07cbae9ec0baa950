/**
 * MCP round trip against a real headless owner: a trivial tool (mailroom_info) and brain_search,
 * p50/p95 over Streamable HTTP. `node --import tsx bench/_scale-rtt.ts [notes]` (vault from _scale-probe).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { percentile } from './lib';
import { generateMbox } from './_scale-gen';
import { startProbeOwner } from './lib';

const N = Number(process.argv[2] ?? 10_000);
const vault = path.join(os.tmpdir(), `mailroom-probe-${N}`, 'vault');
const data = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-rtt-'));
const BIN = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'bin', 'mailroom.mjs');
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MAILROOM_'))) as Record<string, string>;
const { child, url, token } = await startProbeOwner(vault, data, { env });
for (;;) {
  const st = (await (await fetch(url.origin + '/api/status', { headers: { authorization: `Bearer ${token}` } })).json()) as { index: { state: string } };
  if (st.index.state === 'ready') break;
  await new Promise((r) => setTimeout(r, 100));
}
const mcp = new Client({ name: 'rtt', version: '1' });
await mcp.connect(new StreamableHTTPClientTransport(new URL(url.origin + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
const time = async (label: string, fn: (i: number) => Promise<unknown>) => {
  for (let i = 0; i < 10; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < 100; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  console.log(`${label}: p50 ${percentile(out, 50).toFixed(2)} p95 ${percentile(out, 95).toFixed(2)} ms  load ${os.loadavg()[0]!.toFixed(1)}`);
};
await time('mailroom_info', () => mcp.callTool({ name: 'mailroom_info', arguments: {} }));
await time('brain_search', (i) => mcp.callTool({ name: 'brain_search', arguments: { query: ['alpha', 'garden', 'soccer', 'compost'][i % 4] } }));
await time('GET /api/status', () => fetch(url.origin + '/api/status', { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text()));
// The same tools/call as a bare POST (no SDK client): what the owner and HTTP cost alone.
const sid = (mcp.transport as StreamableHTTPClientTransport).sessionId!;
let rid = 1000;
const raw = async (name: string, args: Record<string, unknown>) => {
  const r = await fetch(url.origin + '/mcp', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: rid++, method: 'tools/call', params: { name, arguments: args } }),
  });
  return r.text();
};
await time('bare POST mailroom_info', () => raw('mailroom_info', {}));
await time('bare POST brain_search', (i) => raw('brain_search', { query: ['alpha', 'garden', 'soccer', 'compost'][i % 4] }));
if (process.env.MSGS) {
  // search_inbox right after a CLI import (background triage running), then once it has had time to finish.
  const M = Number(process.env.MSGS);
  const mbox = path.join(os.tmpdir(), `mailroom-probe-mbox-${M}.mbox`);
  const mb = fs.existsSync(mbox) ? undefined : generateMbox(mbox, M);
  const words = (mb?.vocab ?? (await import('./_scale-gen')).vocabulary()).words;
  const run = promisify(execFile);
  await run(process.execPath, [BIN, 'mail', 'inbox-add', 'me@acme.example', '--id', 'me', '--data-dir', data, '--vault', vault], { env });
  const ti = performance.now();
  await run(process.execPath, [BIN, 'mail', 'import', mbox, '--inbox', 'me', '--json', '--data-dir', data, '--vault', vault], { env, maxBuffer: 64 << 20 });
  console.log(`import ${M}: ${((performance.now() - ti) / 1000).toFixed(1)} s`);
  const q = (i: number) => words[200 + ((i * 13) % 800)];
  await time('search_inbox right after import', (i) => mcp.callTool({ name: 'search_inbox', arguments: { inbox_id: 'me', query: q(i), top_k: 10 } }));
  await time('bare POST search_inbox', (i) => raw('search_inbox', { inbox_id: 'me', query: q(i), top_k: 10 }));
  await new Promise((r) => setTimeout(r, Number(process.env.SETTLE_MS ?? 60_000)));
  await time('search_inbox later', (i) => mcp.callTool({ name: 'search_inbox', arguments: { inbox_id: 'me', query: q(i), top_k: 10 } }));
}
await mcp.close();
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
fs.rmSync(data, { recursive: true, force: true });

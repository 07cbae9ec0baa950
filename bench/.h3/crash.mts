import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const vault = process.argv[2];
const data = '/tmp/h-scale3/crashdata';
fs.rmSync(data, { recursive: true, force: true });
const child = spawn(process.execPath, ['bin/mailroom.mjs', 'start', '--headless', '--vault', vault, '--data-dir', data, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
let err = '';
child.stderr!.on('data', (d) => (err += d));
child.on('exit', (code, sig) => { console.log('OWNER EXIT', code, sig, '\n', err.slice(-3000)); process.exit(1); });
const url = await new Promise<URL>((res) => { let out = ''; child.stdout!.on('data', (d) => { out += d; const m = /running at (\S+)/.exec(out); if (m) res(new URL(m[1])); }); });
const token = url.searchParams.get('token')!;
const api = async (r: string) => (await (await fetch(url.origin + r, { headers: { authorization: `Bearer ${token}` } })).json()) as { index: { state: string } };
const mcp = new Client({ name: 'b', version: '1' });
await mcp.connect(new StreamableHTTPClientTransport(new URL(url.origin + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
for (;;) { const s = await api('/api/status'); if (s.index.state === 'ready') break; await new Promise((r) => setTimeout(r, 200)); }
console.log('ready');
const words = JSON.parse(fs.readFileSync('/tmp/h-scale3/vault/vocab.json', 'utf8')) as string[];
for (let i = 0; i < 300; i++) {
  await mcp.callTool({ name: 'brain_search', arguments: { query: i % 2 ? words[3000 + ((i * 37) % 10000)] : words[(i * 7) % 30] } });
}
console.log('searches ok');
for (let i = 0; i < 10; i++) {
  fs.writeFileSync(`${vault}/area-0/crash-${i}.md`, `# c ${i}\n\nzqcrash${i}\n`);
  for (;;) { const r = (await mcp.callTool({ name: 'brain_search', arguments: { query: `zqcrash${i}` } })) as { structuredContent?: { hits: unknown[] } }; if (r.structuredContent?.hits.length) break; await new Promise((res) => setTimeout(res, 5)); }
}
console.log('changes ok');
child.kill('SIGTERM');

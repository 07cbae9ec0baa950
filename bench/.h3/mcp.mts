import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const out = fs.readFileSync('/tmp/h-scale3/o1/out.log', 'utf8');
const url = new URL(/running at (\S+)/.exec(out)![1]);
const token = url.searchParams.get('token')!;
const mcp = new Client({ name: 'b', version: '1' });
await mcp.connect(new StreamableHTTPClientTransport(new URL(url.origin + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
const inboxDir = '/tmp/h-scale3/o1/v/inbox';
fs.mkdirSync(inboxDir, { recursive: true });
const words = 'alpha beta gamma delta project meeting budget kyoto tokyo marathon'.split(' ');
for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(inboxDir, `item-${i}.md`), `# item ${i}\n\n${words.map((w, j) => words[(i + j) % 10]).join(' ')}\n`);
for (const name of process.argv.slice(2)) {
  const t = performance.now();
  const r = await mcp.callTool({ name, arguments: name === 'inbox_analyze' ? { limit: 100 } : name === 'brain_search' ? { query: 'project' } : {} });
  console.log(name, Math.round(performance.now() - t), 'ms', JSON.stringify(r).slice(0, 200));
}
await mcp.close();

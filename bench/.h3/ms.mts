import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const out = fs.readFileSync('/tmp/h-scale3/o1/out.log', 'utf8');
const url = new URL(/running at (\S+)/.exec(out)![1]);
const token = url.searchParams.get('token')!;
const mcp = new Client({ name: 'b', version: '1' });
await mcp.connect(new StreamableHTTPClientTransport(new URL(url.origin + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
const words = 'the of and to project meeting budget kyoto tokyo marathon'.split(' ');
for (const tool of ['search_inbox', 'mailroom_info']) {
  const xs: number[] = [];
  for (let i = 0; i < 40; i++) { const t = performance.now(); await mcp.callTool({ name: tool, arguments: tool === 'search_inbox' ? { inbox_id: 'me', query: words[i % 10], top_k: 10 } : {} }); xs.push(performance.now() - t); }
  xs.sort((a, b) => a - b);
  console.log(tool, 'p50', xs[20].toFixed(1), 'p95', xs[37].toFixed(1));
}
await mcp.close();

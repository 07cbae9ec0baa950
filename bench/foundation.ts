import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { percentile, ratio, round, rssOfPid, timeMany, type BenchRow } from './lib';
import { createMcpServer } from '../electron/core/transports/mcp';
import { REPO_ROOT, startTestOwner, tempDir } from '../tests/helpers/owner';
import { cleanEnv } from '../tests/helpers/cli';

const BIN = path.join(REPO_ROOT, 'bin', 'mailroom.mjs');

/** MCP tools/call through `mailroom mcp` forwarding to an owner, vs. the same call in-process. */
async function mcpRoundTrip(): Promise<BenchRow[]> {
  const owner = await startTestOwner();
  try {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const server = createMcpServer(owner.core.mcp);
    await server.connect(b);
    const inproc = new Client({ name: 'bench', version: '1' });
    await inproc.connect(a);

    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--data-dir', owner.dataDir, '--vault', owner.vaultDir], env: cleanEnv(), stderr: 'ignore' });
    const bridged = new Client({ name: 'bench', version: '1' });
    await bridged.connect(transport);

    const call = (c: Client) => () => c.callTool({ name: 'mailroom_info', arguments: {} });
    const base = await timeMany(300, call(inproc), 20);
    const via = await timeMany(300, call(bridged), 20);
    await bridged.close();
    await inproc.close();
    const p50 = round(percentile(via, 50));
    return [
      { area: 'foundation', figure: 'MCP tools/call p50 via stdio bridge → owner', value: p50, unit: 'ms', baseline: round(percentile(base, 50), 3), baseline_label: 'in-process', ratio: ratio(p50, percentile(base, 50)), goal: 'p50 ≤ 3 ms', pass: p50 <= 3 },
      { area: 'foundation', figure: 'MCP tools/call p99 via stdio bridge → owner', value: round(percentile(via, 99)), unit: 'ms', baseline: round(percentile(base, 99), 3), baseline_label: 'in-process', ratio: ratio(percentile(via, 99), percentile(base, 99)) },
    ];
  } finally {
    await owner.close();
  }
}

/** Hub invoke → broadcast latency at 1,000 msg/s with the official client. */
async function hubLatency(): Promise<BenchRow[]> {
  const owner = await startTestOwner();
  try {
    owner.core.hub.register('BenchEcho', (_ctx, sent) => {
      owner.core.hub.broadcastUntyped('BenchEchoed', sent);
      return true;
    });
    const mk = () =>
      new HubConnectionBuilder().withUrl(owner.url + '/hubs/mailbox', { accessTokenFactory: () => owner.token }).configureLogging(LogLevel.None).build();
    const sender = mk();
    const receiver = mk();
    await sender.start();
    await receiver.start();
    // Baseline: a plain invoke round trip (Ping) on the same connection.
    const pings = await timeMany(500, () => sender.invoke('Ping'), 50);

    const latencies: number[] = [];
    const total = 3_000;
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    receiver.on('BenchEchoed', (sent: number) => {
      latencies.push(performance.now() - sent);
      if (latencies.length === total) resolveDone();
    });
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      // Pace at 1,000 msg/s.
      const due = start + i;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      void sender.send('BenchEcho', performance.now());
    }
    await Promise.race([done, new Promise((_, rej) => setTimeout(() => rej(new Error('hub bench timed out')), 30_000))]);
    const seconds = (performance.now() - start) / 1000;
    await sender.stop();
    await receiver.stop();
    const p50 = round(percentile(latencies, 50));
    const p99 = round(percentile(latencies, 99));
    return [
      { area: 'foundation', figure: `hub invoke → broadcast p50 (${Math.round(total / seconds)} msg/s)`, value: p50, unit: 'ms', baseline: round(percentile(pings, 50)), baseline_label: 'Ping round trip p50', ratio: ratio(p50, percentile(pings, 50)) },
      { area: 'foundation', figure: 'hub invoke → broadcast p99', value: p99, unit: 'ms', baseline: round(percentile(pings, 99)), baseline_label: 'Ping round trip p99', ratio: ratio(p99, percentile(pings, 99)), goal: 'p99 ≤ 20 ms', pass: p99 <= 20 },
    ];
  } finally {
    await owner.close();
  }
}

/** Resident memory of the headless owner on the demo vault, vs. an idle node process. */
async function ownerRss(): Promise<BenchRow[]> {
  const dataDir = tempDir();
  const idle = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const child = spawn(process.execPath, [BIN, 'start', '--headless', '--data-dir', dataDir, '--port', '0'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const t = setTimeout(() => reject(new Error('owner did not start')), 60_000);
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /running at (\S+)/.exec(out);
        if (m) {
          clearTimeout(t);
          resolve(m[1]);
        }
      });
    });
    const u = new URL(url);
    const token = u.searchParams.get('token')!;
    // Let start-up work (indexing, first analysis) finish: wait until /api/info stops changing.
    let last = '';
    for (let i = 0; i < 40; i++) {
      const info = await (await fetch(`${u.origin}/api/info`, { headers: { authorization: `Bearer ${token}` } })).text();
      if (info === last && i > 4) break;
      last = info;
      await new Promise((r) => setTimeout(r, 250));
    }
    const rss = round(rssOfPid(child.pid!), 1);
    const base = round(rssOfPid(idle.pid!), 1);
    return [{ area: 'foundation', figure: 'headless owner RSS on the demo vault', value: rss, unit: 'MB', baseline: base, baseline_label: 'idle node', ratio: ratio(rss, base), goal: '≤ 250 MB', pass: rss <= 250 }];
  } finally {
    child.kill('SIGTERM');
    idle.kill('SIGKILL');
  }
}

export async function run(): Promise<BenchRow[]> {
  return [...(await mcpRoundTrip()), ...(await hubLatency()), ...(await ownerRss())];
}

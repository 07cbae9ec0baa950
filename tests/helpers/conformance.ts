import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { BIN, cleanEnv } from './cli';
import { REPO_ROOT, tempDir } from './owner';

/**
 * Harness for the official MCP conformance suite (`@modelcontextprotocol/conformance`, a
 * devDependency). The suite is an MCP client that only speaks Streamable HTTP to a URL and sends
 * no Authorization header, so:
 * - over HTTP it talks to the owner through `authProxy`, a 127.0.0.1 reverse proxy that adds the
 *   owner's bearer token and maps its own Host/Origin to the owner's (any other Host/Origin passes
 *   through unchanged, so the owner's DNS-rebinding guard is what answers the suite's evil Host);
 * - through stdio it talks to `stdioGateway`, which runs one real `mailroom mcp` child per MCP
 *   session and relays JSON-RPC between the suite and the child's stdin/stdout.
 */

export const CONFORMANCE_DIST = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
export const conformanceInstalled = (): boolean => fs.existsSync(CONFORMANCE_DIST);

/**
 * The suite's CLI imports `fs.globSync` (Node ≥ 22) for its `tier-check` command only; on Node 20
 * this loader hook drops that import (tier-check is never run here).
 */
const NODE20_HOOK = `
export async function load(url, context, next) {
  const r = await next(url, context);
  if (url.includes('/@modelcontextprotocol/conformance/dist/') && r.source && !('globSync' in (await import('node:fs')))) {
    const src = String(r.source).replace(/globSync as (\\w+),/, (_m, name) => { globName = name; return ''; });
    return { ...r, source: src.replace(/^(#!.*\\n)?/, (m) => m + 'const ' + globName + ' = () => [];\\n') };
  }
  return r;
}
let globName = 'o';
`;

function hookArgs(dir: string): string[] {
  const hook = path.join(dir, 'node20-hook.mjs');
  const reg = path.join(dir, 'node20-register.mjs');
  fs.writeFileSync(hook, NODE20_HOOK);
  fs.writeFileSync(reg, `import { register } from 'node:module';\nregister(${JSON.stringify('file://' + hook)});\n`);
  return ['--import', reg];
}

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  /** Checks that failed (id and message), for the assertion message. */
  failures: Array<{ id: string; error?: string }>;
}

/** Runs `conformance server --url <url> --scenario <name>` for each scenario; reads its checks.json. */
export async function runConformance(url: string, scenarios: string[], timeoutMs = 120_000): Promise<ScenarioResult[]> {
  const work = tempDir('mailroom-conformance-');
  const pre = hookArgs(work);
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const out = path.join(work, scenario);
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [...pre, CONFORMANCE_DIST, 'server', '--url', url, '--scenario', scenario, '-o', out], {
        cwd: work,
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let so = '';
      let se = '';
      child.stdout.on('data', (d) => (so += d));
      child.stderr.on('data', (d) => (se += d));
      const t = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`conformance ${scenario} timed out; stdout: ${so} stderr: ${se}`));
      }, timeoutMs);
      child.on('exit', (c) => {
        clearTimeout(t);
        resolve({ code: c, stdout: so, stderr: se });
      });
    });
    const files = fs.existsSync(out) ? (fs.readdirSync(out, { recursive: true }) as string[]).filter((f) => f.endsWith('checks.json')) : [];
    if (!files.length) throw new Error(`conformance ${scenario} wrote no checks.json (exit ${code}); stdout: ${stdout} stderr: ${stderr}`);
    const checks = files.flatMap((f) => JSON.parse(fs.readFileSync(path.join(out, f), 'utf8')) as Array<{ id: string; status: string; errorMessage?: string }>);
    const failures = checks.filter((c) => c.status === 'FAILURE').map((c) => ({ id: c.id, error: c.errorMessage }));
    results.push({ scenario, passed: checks.filter((c) => c.status === 'SUCCESS').length, failed: failures.length, failures });
  }
  return results;
}

export interface Gateway {
  url: string;
  close(): Promise<void>;
}

const listen = (server: http.Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** A reverse proxy to the owner that adds its bearer token (the suite sends none). */
export async function authProxy(ownerUrl: string, token: string): Promise<Gateway> {
  const owner = new URL(ownerUrl);
  let port = 0;
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const own = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (own.includes(String(headers.host).toLowerCase())) headers.host = owner.host;
    if (headers.origin && own.some((h) => `http://${h}` === String(headers.origin).toLowerCase())) headers.origin = owner.origin;
    const up = http.request({ host: owner.hostname, port: owner.port, method: req.method, path: req.url, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((r) => server.close(() => r())).then(() => void server.closeAllConnections()),
  };
}

/** An HTTP front whose every MCP session is a real `mailroom mcp` child over stdio. */
export async function stdioGateway(dataDir: string, vault: string): Promise<Gateway> {
  const sessions = new Map<string, { http: StreamableHTTPServerTransport; stdio: StdioClientTransport }>();
  const readBody = (req: http.IncomingMessage) =>
    new Promise<unknown>((resolve) => {
      let s = '';
      req.on('data', (d) => (s += d));
      req.on('end', () => {
        try {
          resolve(s ? JSON.parse(s) : undefined);
        } catch {
          resolve(undefined);
        }
      });
    });
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      const sid = req.headers['mcp-session-id'] as string | undefined;
      const live = sid ? sessions.get(sid) : undefined;
      if (live) return live.http.handleRequest(req, res, body);
      if (sid || req.method !== 'POST' || !isInitializeRequest(body)) {
        res.writeHead(sid ? 404 : 400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no session' }, id: null }));
        return;
      }
      const stdio = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--data-dir', dataDir, '--vault', vault], env: cleanEnv(), stderr: 'ignore' });
      const front: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { http: front, stdio }),
      });
      // Relay: whatever the suite sends goes to the child's stdin; whatever the child prints goes back.
      front.onmessage = (m) => void stdio.send(m);
      stdio.onmessage = (m) => void front.send(m as never);
      front.onclose = () => void stdio.close();
      await stdio.start();
      await front.start();
      await front.handleRequest(req, res, body);
    })().catch(() => res.headersSent || res.writeHead(500).end());
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await Promise.allSettled([...sessions.values()].flatMap((s) => [s.http.close(), s.stdio.close()]));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}


import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT } from './owner';

export const BIN = path.join(REPO_ROOT, 'bin', 'mailroom.mjs');

/** Env for a child `mailroom` with no inherited MAILROOM_* settings. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('MAILROOM_')) env[k] = v;
  return { ...env, ...extra };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `mailroom …` to completion. */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mailroom ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a long-running `mailroom …` and resolves once a stdout line matches. */
export function startCli(args: string[], ready: RegExp, env: Record<string, string> = {}, timeoutMs = 30_000): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mailroom ${args.join(' ')} did not get ready; stdout: ${out} stderr: ${err}`));
    }, timeoutMs);
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = out.match(ready);
      if (m) {
        clearTimeout(t);
        resolve({ child, match: m });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`mailroom ${args.join(' ')} exited ${code}; stdout: ${out} stderr: ${err}`));
    });
  });
}

/** An MCP SDK client talking to `mailroom mcp` over stdio, the way Claude Desktop does. */
export async function stdioClient(dataDir: string, opts: { vault?: string; env?: Record<string, string> } = {}): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--data-dir', dataDir, ...(opts.vault ? ['--vault', opts.vault] : [])],
    env: cleanEnv(opts.env),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mailroom-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

export async function killAndWait(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

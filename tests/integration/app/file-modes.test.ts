/**
 * The data dir holds mail, memories and session messages: under a 022 umask nothing in it may be
 * readable by group or others — not the dir, not state.db/index.db nor their -wal/-shm, not the
 * logs — and a data dir an older version left 0755/0644 is tightened on start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, startOwner, type Owner } from '../../../electron/core/host';
import { createLogger } from '../../../electron/core/kernel/log';
import { REPO_ROOT, callTool, tempDir, writeFiles } from '../../helpers/owner';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Every path under `root` (root included) whose mode lets group or others in. */
function loose(root: string): string[] {
  const out: string[] = [];
  const visit = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.mode & 0o077) out.push(`${path.relative(root, p) || '.'} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const n of fs.readdirSync(p)) visit(path.join(p, n));
  };
  visit(root);
  return out;
}

describe.skipIf(process.platform === 'win32')('data dir file modes', () => {
  let oldUmask: number;
  let owner: Owner | undefined;
  let dataDir: string;
  beforeAll(() => {
    oldUmask = process.umask(0o022);
  });
  afterAll(async () => {
    await owner?.stop();
    process.umask(oldUmask);
  });

  it('a new data dir, its databases (with -wal/-shm) and logs are 0700/0600 under umask 022', async () => {
    dataDir = path.join(tempDir('mailroom-modes-'), 'data');
    const vaultDir = tempDir('mailroom-vault-');
    writeFiles(vaultDir, { 'notes/a.md': '# A\nhello\n' });
    const config = resolveConfig({ dataDir, vault: vaultDir, port: 0, env: {}, appRoot: REPO_ROOT });
    const log = createLogger({ file: path.join(dataDir, 'logs', 'mailroom.log') });
    owner = await startOwner(config, { log });
    log.info('a line so the log file has content');
    // Write through every store while it runs: -wal and -shm exist now.
    const transport = new StreamableHTTPClientTransport(new URL(owner.url + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${owner.token}` } } });
    const client = new Client({ name: 'modes-test', version: '1.0.0' });
    await client.connect(transport);
    await callTool(client, 'save_memory', { content: 'The caretaker code for the shed is kept in the blue folder' });
    await callTool(client, 'brain_search', { query: 'hello' });
    await client.close();
    const names = fs.readdirSync(dataDir);
    expect(names).toEqual(expect.arrayContaining(['state.db', 'state.db-wal', 'state.db-shm', 'index.db', 'index.db-wal', 'logs']));
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(loose(dataDir)).toEqual([]);
    await owner.stop();
    owner = undefined;
    expect(loose(dataDir)).toEqual([]);
  });

  it('a data dir left 0755 with 0644 files by an older version is tightened on start', async () => {
    const dir = path.join(tempDir('mailroom-modes-'), 'data');
    fs.mkdirSync(path.join(dir, 'logs'), { recursive: true, mode: 0o755 });
    fs.mkdirSync(path.join(dir, 'trash', 'b1'), { recursive: true, mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'logs', 'mailroom.log'), 'old line\n', { mode: 0o644 });
    fs.writeFileSync(path.join(dir, 'trash', 'b1', 'note.md'), 'private\n', { mode: 0o644 });
    fs.writeFileSync(path.join(dir, 'state.db'), '', { mode: 0o644 });
    expect(loose(dir).length).toBeGreaterThan(3);
    const vaultDir = tempDir('mailroom-vault-');
    const config = resolveConfig({ dataDir: dir, vault: vaultDir, port: 0, env: {}, appRoot: REPO_ROOT });
    owner = await startOwner(config, { log: createLogger({ file: path.join(dir, 'logs', 'mailroom.log') }) });
    expect(loose(dir)).toEqual([]);
    await owner.stop();
    owner = undefined;
  });
});

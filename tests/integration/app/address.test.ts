import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { resolveConfig, startOwner, type Owner } from '../../../electron/core/host';
import { silentLogger } from '../../../electron/core/kernel/log';
import { DEFAULT_PORT, type SettingsDto } from '../../../shared/contract/settings';
import { REPO_ROOT, tempDir, waitFor } from '../../helpers/owner';
import { killAndWait, runCli, startCli } from '../../helpers/cli';

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** Holds a port like another program would. */
async function occupy(port: number): Promise<net.Server> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(port, '127.0.0.1', () => r()));
  return srv;
}

const configOf = (dataDir: string) => JSON.parse(fs.readFileSync(path.join(dataDir, 'config.json'), 'utf8')) as Record<string, unknown>;

describe('a stable address', () => {
  const owners: Owner[] = [];
  const servers: net.Server[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const o of owners.splice(0)) await o.stop();
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
    for (const c of children.splice(0)) await killAndWait(c, 'SIGTERM');
  });
  const start = async (dataDir: string, vault: string, defaultPort: number, port?: number) => {
    const o = await startOwner(resolveConfig({ dataDir, vault, env: {}, appRoot: REPO_ROOT, defaultPort, port }), { log: silentLogger() });
    owners.push(o);
    return o;
  };

  it('the default port is 7719, a fixed one', () => {
    expect(resolveConfig({ dataDir: tempDir(), env: {}, appRoot: REPO_ROOT }).port).toBe(DEFAULT_PORT);
    expect(DEFAULT_PORT).toBe(7719);
  });

  it('remembers the port in config.json once used, and comes back on it after a restart', async () => {
    const dataDir = tempDir();
    const vault = tempDir();
    const p = await freePort();
    const first = await start(dataDir, vault, p);
    expect(first.http.port).toBe(p);
    expect(first.portNote).toBeNull();
    expect(configOf(dataDir).port).toBe(p);
    await owners.pop()!.stop();
    // Another default now (a new version, say): the remembered port wins, the link stays the same.
    const second = await start(dataDir, vault, await freePort());
    expect(second.url).toBe(`http://127.0.0.1:${p}`);
  });

  it('a taken port falls back to a free one with a note (printed and in Settings), keeping the remembered one', async () => {
    const dataDir = tempDir();
    const p = await freePort();
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ port: p }));
    servers.push(await occupy(p));
    const o = await start(dataDir, tempDir(), p);
    expect(o.http.port).not.toBe(p);
    expect(o.portNote).toContain(`Port ${p} on 127.0.0.1 is in use by another program, so Mailroom uses port ${o.http.port} for this run`);
    const settings = (await (await fetch(`${o.url}/api/settings`, { headers: { authorization: `Bearer ${o.token}` } })).json()) as SettingsDto;
    expect(settings.address).toMatchObject({ port: o.http.port, preferred: p, note: o.portNote });
    expect(configOf(dataDir).port).toBe(p);

    // Printed by `mailroom start`, too.
    await owners.pop()!.stop();
    const { child, match } = await startCli(['start', '--headless', '--data-dir', dataDir, '--vault', tempDir()], /Mailroom is running at (\S+)/, {});
    children.push(child);
    expect(match[1]).not.toContain(`:${p}/`);
  });

  it('a port asked for with --port must be had: a clear error, no fallback', async () => {
    const p = await freePort();
    servers.push(await occupy(p));
    await expect(start(tempDir(), tempDir(), p, p)).rejects.toMatchObject({ code: 'port_in_use' });
  });

  it('without the token the browser gets a styled page that says how to get in', async () => {
    const o = await start(tempDir(), tempDir(), 0);
    const r = await fetch(`${o.url}/`);
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await r.text();
    expect(html).toContain('<style>');
    expect(html).toContain('mailroom open');
    expect(html).toContain('mailroom status');
    expect(html).toContain('npm start');
    expect(html).not.toContain(o.token);
  });

  it('mailroom open runs the browser with the link as one argument (no shell), or prints it', async () => {
    const dataDir = tempDir();
    const o = await start(dataDir, tempDir(), 0);
    const dir = tempDir();
    const record = path.join(dir, 'argv.json');
    const browser = path.join(dir, 'fake browser');
    fs.writeFileSync(browser, `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`, { mode: 0o755 });
    const r = await runCli(['open', '--data-dir', dataDir], { MAILROOM_BROWSER: browser });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Opened ${o.url} in your browser`);
    const argv = await waitFor(() => (fs.existsSync(record) ? (JSON.parse(fs.readFileSync(record, 'utf8')) as string[]) : []), (a) => a.length > 0, 10_000, 'the browser to run');
    expect(argv).toEqual([o.uiUrl]);

    // No browser program: the link is printed instead.
    const none = await runCli(['open', '--data-dir', dataDir], { MAILROOM_BROWSER: path.join(dir, 'missing-browser') });
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('Could not open a browser here');
    expect(none.stdout).toContain(o.uiUrl);

    // Nothing running: says how to start it.
    const idle = await runCli(['open', '--data-dir', tempDir()], { MAILROOM_BROWSER: browser });
    expect(idle.code).toBe(1);
    expect(idle.stderr).toContain('npm start');
  });
});

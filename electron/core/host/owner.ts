import fs from 'node:fs';
import path from 'node:path';
import { createLogger, type Logger } from '../kernel/log';
import { ensurePrivateDir, tightenTree } from '../kernel/fs';
import { MailroomError } from '../kernel/errors';
import { startHttpServer, type RunningHttpServer } from '../transports/http';
import { readConfigFile, updateConfigFile, type Config } from './config';
import { createCore, type Core, type CoreOptions } from './core';
import { ensureToken, findOwner, publishPort, releaseLock, tryAcquireLock, type RunningOwner } from './lock';

export interface Owner {
  core: Core;
  http: RunningHttpServer;
  token: string;
  url: string;
  /** The link that opens the UI (sets the token cookie). */
  uiUrl: string;
  /** Set when the remembered/default port was taken and another one is used for this run. */
  portNote: string | null;
  stop(): Promise<void>;
}

export interface OwnerOptions extends CoreOptions {
  /** The built renderer to serve (headless mode). */
  staticDir?: string;
}

export class OwnerRunningError extends MailroomError {
  constructor(readonly owner: RunningOwner) {
    super('owner_running', `Mailroom is already running for this data dir (pid ${owner.pid}) at ${owner.url}/?token=${owner.token}`);
  }
}

export function defaultStaticDir(appRoot: string): string | undefined {
  const dir = path.join(appRoot, 'out', 'renderer');
  return fs.existsSync(dir) ? dir : undefined;
}

/**
 * Becomes the owner of a data dir: takes the lock, builds the core, listens on 127.0.0.1 and
 * publishes the port. Throws OwnerRunningError when another live process owns it.
 */
export async function startOwner(config: Config, opts: OwnerOptions = {}): Promise<Owner> {
  // 0700 whatever the umask; a data dir from an older version (0755, files 0644) is tightened.
  ensurePrivateDir(config.dataDir);
  tightenTree(config.dataDir);
  if (!tryAcquireLock(config.dataDir)) {
    const running = await findOwner(config.dataDir);
    if (running) throw new OwnerRunningError(running);
    if (!tryAcquireLock(config.dataDir)) throw new MailroomError('owner_busy', 'Another Mailroom process is starting for this data dir; try again in a moment.');
  }
  const log: Logger = opts.log ?? createLogger({ file: path.join(config.dataDir, 'logs', 'mailroom.log'), stderr: true });
  let http: RunningHttpServer | undefined;
  let core: Core | undefined;
  try {
    const token = ensureToken(config.dataDir);
    let portNote: string | null = null;
    let restart: (next: { vaultDir: string }) => void = () => undefined;
    core = await createCore(config, { ...opts, log, port: () => http?.port ?? 0, address: () => ({ preferred: config.port, note: portNote }), restart: (next) => (opts.restart ?? restart)(next) });
    await core.start();
    const listened = await listen(config, (port) =>
      startHttpServer({
        port,
        token,
        log: log.child('http'),
        routes: core!.routes,
        hub: core!.hub,
        mcp: core!.mcp,
        staticDir: opts.staticDir,
      }),
    );
    http = listened.server;
    portNote = listened.note;
    if (portNote) log.warn('preferred port taken', { preferred: config.port, port: http.port });
    publishPort(config.dataDir, http.port);
    // A stable address: the first port used is remembered, so the next start (and open tabs) find it again.
    if (config.file.port === undefined && config.portSource === 'default') {
      try {
        updateConfigFile(config.dataDir, { port: http.port });
      } catch (e) {
        log.warn('could not remember the port in config.json', { error: String(e) });
      }
    }
    const running = http;
    const started = core;
    let stopped = false;
    let restarting: Promise<void> | undefined;
    const stopThis = async () => {
      await running.close();
      await started.stop();
    };
    let stopCurrent = stopThis;
    const self: Owner = {
      core: started,
      http: running,
      token,
      url: running.url,
      uiUrl: `${running.url}/?token=${token}`,
      portNote,
      async stop() {
        if (stopped) return;
        stopped = true;
        await restarting;
        await stopCurrent();
        releaseLock(config.dataDir);
        if (!opts.log) log.close();
      },
    };
    /**
     * A new vault chosen in Settings: this core stops and a new one starts on the same port and
     * token, so open tabs reconnect by themselves. The owner object keeps its identity.
     */
    restart = (next) => {
      if (stopped || restarting) return;
      restarting = (async () => {
        log.info('restarting on a new vault', { vault: next.vaultDir });
        const port = self.http.port;
        await stopCurrent();
        stopCurrent = async () => undefined;
        const cfg: Config = { ...config, vaultDir: next.vaultDir, demoVault: false, file: readConfigFile(config.dataDir), port, portSource: 'file' };
        // The new core's Settings restart this owner again (not a nested one), so `self` stays current.
        const fresh = await startOwner(cfg, { ...opts, log, restart: (n) => restart(n) });
        Object.assign(self, { core: fresh.core, http: fresh.http, url: fresh.url, uiUrl: fresh.uiUrl, portNote: fresh.portNote });
        stopCurrent = () => fresh.stop();
      })()
        .catch((e: unknown) => log.error('restart on the new vault failed', { error: String(e), stack: (e as Error)?.stack }))
        .finally(() => (restarting = undefined));
    };
    return self;
  } catch (e) {
    await http?.close().catch(() => undefined);
    await core?.stop().catch(() => undefined);
    releaseLock(config.dataDir);
    throw e;
  }
}

/**
 * Listens on the configured port. A port asked for with --port / MAILROOM_PORT must be had (else a
 * clear error); the remembered or default one falls back to a free port with a note saying so.
 */
async function listen(config: Config, start: (port: number) => Promise<RunningHttpServer>): Promise<{ server: RunningHttpServer; note: string | null }> {
  const port = config.port;
  try {
    return { server: await start(port), note: null };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    if (config.portSource === 'flag' || config.portSource === 'env') {
      throw new MailroomError('port_in_use', `Port ${port} on 127.0.0.1 is in use by another program. Choose another with --port or MAILROOM_PORT (0 picks a free one).`);
    }
    const server = await start(0);
    const note =
      `Port ${port} on 127.0.0.1 is in use by another program, so Mailroom uses port ${server.port} for this run. ` +
      `Links and tabs for port ${port} will not reach it; free port ${port} and restart, or choose another with --port or "port" in config.json.`;
    return { server, note };
  }
}

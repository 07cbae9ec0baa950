import fs from 'node:fs';
import path from 'node:path';
import { createLogger, type Logger } from '../kernel/log';
import { ensurePrivateDir, tightenTree } from '../kernel/fs';
import { MailroomError } from '../kernel/errors';
import { startHttpServer, type RunningHttpServer } from '../transports/http';
import type { Config } from './config';
import { createCore, type Core, type CoreOptions } from './core';
import { ensureToken, findOwner, publishPort, releaseLock, tryAcquireLock, type RunningOwner } from './lock';

export interface Owner {
  core: Core;
  http: RunningHttpServer;
  token: string;
  url: string;
  /** The link that opens the UI (sets the token cookie). */
  uiUrl: string;
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
    core = await createCore(config, { ...opts, log, port: () => http?.port ?? 0 });
    await core.start();
    http = await listen(config.port, (port) =>
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
    publishPort(config.dataDir, http.port);
    const running = http;
    const started = core;
    let stopped = false;
    return {
      core: started,
      http: running,
      token,
      url: running.url,
      uiUrl: `${running.url}/?token=${token}`,
      async stop() {
        if (stopped) return;
        stopped = true;
        await running.close();
        await started.stop();
        releaseLock(config.dataDir);
        if (!opts.log) log.close();
      },
    };
  } catch (e) {
    await http?.close().catch(() => undefined);
    await core?.stop().catch(() => undefined);
    releaseLock(config.dataDir);
    throw e;
  }
}

/** Listens on the configured port; if that port is taken, says so clearly. */
async function listen(port: number, start: (port: number) => Promise<RunningHttpServer>): Promise<RunningHttpServer> {
  try {
    return await start(port);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new MailroomError('port_in_use', `Port ${port} on 127.0.0.1 is in use by another program. Choose another with --port or MAILROOM_PORT (0 picks a free one).`);
    }
    throw e;
  }
}

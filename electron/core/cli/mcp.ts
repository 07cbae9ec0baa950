import path from 'node:path';
import type { Config } from '../app/config';
import { findOwner, pidAlive } from '../app/lock';
import { OwnerRunningError, startOwner } from '../app/owner';
import { createLogger } from '../common/log';
import { localUpstream, remoteUpstream, runStdioBridge, type Upstream } from '../mcp';

/**
 * `mailroom mcp`: forwards to the data dir's owner, or becomes the owner. Nothing but JSON-RPC
 * goes to stdout; logs go to stderr and the log file.
 */
export async function runMcpStdio(config: Config): Promise<void> {
  // Anything a library prints must not corrupt the JSON-RPC stream.
  console.log = console.error;
  console.info = console.error;
  const log = createLogger({ file: path.join(config.dataDir, 'logs', 'mcp-bridge.log'), stderr: process.env.MAILROOM_LOG_STDERR === '1' }, 'mcp');
  const taskId = process.env.MAILROOM_TASK_ID || undefined;
  const factory = {
    async connect(): Promise<Upstream> {
      for (;;) {
        const owner = await findOwner(config.dataDir, 1_000);
        if (owner) return remoteUpstream(owner.url, owner.token, taskId, () => pidAlive(owner.pid));
        try {
          const own = await startOwner(config, { log: createLogger({ file: path.join(config.dataDir, 'logs', 'mailroom.log') }) });
          log.info('became the owner', { port: own.http.port });
          const surface = { version: config.version, tools: own.core.tools, resourceTemplates: own.core.resourceTemplates, log, onSession: (i: { taskId?: string }) => own.core.ctx.events.emit('mcp:session', i) };
          return localUpstream(surface, taskId, () => own.stop());
        } catch (e) {
          if (!(e instanceof OwnerRunningError)) throw e;
          // Lost the race to another process: forward to it instead.
        }
      }
    },
  };
  const bridge = await runStdioBridge(factory, log);
  const exit = async () => {
    await bridge.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void exit());
  process.once('SIGTERM', () => void exit());
  await bridge.done;
  log.close();
  process.exit(0);
}

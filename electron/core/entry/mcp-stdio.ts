import path from 'node:path';
import type { Config } from '../host/config';
import { findOwner, pidAlive } from '../host/lock';
import { OwnerRunningError, startOwner } from '../host/owner';
import { createLogger } from '../kernel/log';
import { localUpstream, remoteUpstream, runStdioBridge, type Upstream } from '../transports/mcp';

/**
 * `mailroom mcp`: forwards to the data dir's owner, or becomes the owner. Nothing but JSON-RPC
 * goes to stdout; logs go to stderr and the log file. Ends when the client closes stdin (or on
 * SIGINT/SIGTERM): an owner stops its core and releases the lock, so bridges that forwarded to
 * it take over.
 */
export async function runMcpStdio(config: Config): Promise<void> {
  // Anything a library prints must not corrupt the JSON-RPC stream.
  console.log = console.error;
  console.info = console.error;
  const log = createLogger({ file: path.join(config.dataDir, 'logs', 'mcp-bridge.log'), stderr: process.env.MAILROOM_LOG_STDERR === '1' }, 'mcp');
  const sessionId = process.env.MAILROOM_TASK_ID || undefined;

  // Listen for the end of stdin from the start: a client may close it while we are still connecting.
  let inputEnded = false;
  const running: { bridge?: Awaited<ReturnType<typeof runStdioBridge>> } = {};
  let exiting: Promise<void> | undefined;
  const exit = (why: string) =>
    (exiting ??= (async () => {
      log.info('mcp bridge exiting', { why });
      await running.bridge?.stop();
      log.close();
      process.exit(0);
    })());
  const onInputEnd = () => {
    inputEnded = true;
    if (running.bridge) void exit('stdin closed');
  };
  process.stdin.once('end', onInputEnd);
  process.stdin.once('close', onInputEnd);
  process.once('SIGINT', () => void exit('SIGINT'));
  process.once('SIGTERM', () => void exit('SIGTERM'));

  const factory = {
    async connect(): Promise<Upstream> {
      for (;;) {
        const owner = await findOwner(config.dataDir, 1_000);
        if (owner) return remoteUpstream(owner.url, owner.token, sessionId, () => pidAlive(owner.pid));
        try {
          const own = await startOwner(config, { log: createLogger({ file: path.join(config.dataDir, 'logs', 'mailroom.log') }) });
          log.info('became the owner', { port: own.http.port });
          return localUpstream(own.core.mcp, sessionId, () => own.stop());
        } catch (e) {
          if (!(e instanceof OwnerRunningError)) throw e;
          // Lost the race to another process: forward to it instead.
        }
      }
    },
  };
  const bridge = (running.bridge = await runStdioBridge(factory, log));
  if (inputEnded) return exit('stdin closed');
  await bridge.done;
  await exit('stdio closed');
}

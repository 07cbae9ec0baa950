import type { Config } from '../host/config';
import { defaultStaticDir, OwnerRunningError, startOwner, type Owner } from '../host/owner';

/**
 * The plain-Node owner: the same core as the Electron app, with the renderer served on
 * 127.0.0.1. Used where Electron cannot run (servers, WSL, CI) or with --headless.
 */
export async function runHeadless(config: Config, out: (line: string) => void = (l) => process.stdout.write(l + '\n')): Promise<Owner | undefined> {
  let owner: Owner;
  try {
    owner = await startOwner(config, { staticDir: defaultStaticDir(config.appRoot) });
  } catch (e) {
    if (e instanceof OwnerRunningError) {
      out(`Mailroom is already running for ${config.dataDir} (pid ${e.owner.pid}): ${e.owner.url}/?token=${e.owner.token}`);
      return undefined;
    }
    throw e;
  }
  if (owner.portNote) out(`Note: ${owner.portNote}`);
  out(`Mailroom is running at ${owner.uiUrl}`);
  out('Open it in your browser with: mailroom open   (or npm run open)');
  const shutdown = async (signal: string) => {
    owner.core.log.info('shutting down', { signal });
    await owner.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  return owner;
}

/**
 * The vault + inbox part of the core, as the owner runs it, for the crash test: the child runs a
 * batch and gets SIGKILLed; the parent opens the same data dir again, which recovers.
 */
import readline from 'node:readline';
import { resolveConfig } from '../../../electron/core/host/config';
import { silentLogger } from '../../../electron/core/kernel/log';
import { createVault } from '../../../electron/core/domains/vault';
import { createInbox, type ActionInput } from '../../../electron/core/domains/inbox';
import { createCoreContext } from '../../../electron/core/host/context';

export async function openCore(dataDir: string, vaultDir: string, appRoot: string) {
  const config = resolveConfig({ dataDir, vault: vaultDir, env: {}, appRoot });
  const { ctx } = createCoreContext(config, { broadcast() {} }, {
    log: silentLogger(),
    platform: { kind: 'headless', notify() {}, setBadge() {}, badges: () => ({}), secrets: { encrypt: (s) => s, decrypt: (s) => s } },
  });
  const vault = createVault(ctx, { watch: false, gitInit: true });
  await vault.start?.();
  const inbox = createInbox(ctx, { vault });
  await inbox.start?.();
  return {
    vault,
    inbox,
    db: ctx.stateDb,
    async close() {
      await inbox.stop?.();
      await vault.stop?.();
      ctx.stateDb.close();
    },
  };
}

/** Child entry: `node child.mjs <dataDir> <vaultDir> <appRoot> <actions.json>`; runs the batch on "go". */
export async function childMain(argv: string[]): Promise<void> {
  const [dataDir, vaultDir, appRoot, actionsJson] = argv;
  const core = await openCore(dataDir, vaultDir, appRoot);
  const actions = JSON.parse(actionsJson) as ActionInput[];
  process.stdout.write('ready\n');
  const rl = readline.createInterface({ input: process.stdin });
  for await (const line of rl) {
    if (line.trim() !== 'go') continue;
    await core.inbox.execute({ actions });
    process.stdout.write('done\n');
    await core.close();
    process.exit(0);
  }
}

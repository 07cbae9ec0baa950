import fs from 'node:fs';
import path from 'node:path';
import { createVault } from '../../electron/core/domains/vault';
import { createInbox } from '../../electron/core/domains/inbox';
import { createNlp } from '../../electron/core/domains/nlp';
import { silentLogger } from '../../electron/core/kernel/log';
import { resolveConfig } from '../../electron/core/host/config';
import { createCoreContext } from '../../electron/core/host/context';
const vaultDir = '/tmp/h-scale3/vault/v';
const ctx = createCoreContext(resolveConfig({ dataDir: '/tmp/h-scale3/an/data', vault: vaultDir, env: {}, appRoot: path.resolve('.') }), { broadcast() {} }, {
  log: silentLogger(),
  platform: { kind: 'headless', notify() {}, setBadge() {}, badges: () => ({}), secrets: { encrypt: (s: string) => s, decrypt: (s: string) => s } },
}).ctx;
const words = JSON.parse(fs.readFileSync('/tmp/h-scale3/vault/vocab.json', 'utf8')) as string[];
const inboxDir = path.join(vaultDir, 'inbox');
fs.mkdirSync(inboxDir, { recursive: true });
for (let i = 0; i < 100; i++) {
  const body = Array.from({ length: 40 }, (_, j) => words[(i * 131 + j * 17) % 3000]).join(' ');
  fs.writeFileSync(path.join(inboxDir, `item-${i}.md`), `# ${words[40 + i]} ${words[400 + i]} notes\n\n${body}\n`);
}
const vault = createVault(ctx, { gitInit: false, watch: false } as never);
await vault.start?.();
await (vault as unknown as { api: { flush?: () => Promise<void> } }).api?.flush?.();
const nlp = await createNlp(ctx);
const inbox = createInbox(ctx, { vault, nlp } as never);
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const r = await (inbox as unknown as { analyze(a: unknown): Promise<{ items: unknown[] }> }).analyze({ limit: 100 });
  console.log('analyze', r.items.length, Math.round(performance.now() - t), 'ms');
}
await vault.stop?.();
await nlp.stop?.();

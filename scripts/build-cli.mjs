// Bundles the Node entry points with esbuild: the CLI (what bin/mailroom.mjs runs) and, when
// present, the tiny hook entry that must start fast. Native and heavy packages stay external.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {}), 'electron'];

const entries = {
  cli: 'electron/core/entry/cli-entry.ts',
  hook: 'electron/core/domains/sessions/hook-cli.ts',
  'vault-indexer': 'electron/core/domains/vault/indexer-worker.ts',
  'vault-watcher': 'electron/core/domains/vault/watch-worker.ts',
  'mail-parser': 'electron/core/domains/mail/parse-worker.ts',
};
const entryPoints = Object.fromEntries(Object.entries(entries).filter(([, f]) => fs.existsSync(path.join(root, f))).map(([k, f]) => [k, path.join(root, f)]));

await build({
  entryPoints,
  outdir: path.join(root, 'out', 'cli'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  external,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __mrCreateRequire } from 'node:module'; const require = __mrCreateRequire(import.meta.url);" },
});

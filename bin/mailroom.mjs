#!/usr/bin/env node
// The `mailroom` command. Runs the esbuild bundle in out/cli (built by `npm install`'s prepare
// step and by `npm run build`); falls back to the TypeScript sources through tsx in a checkout
// that has not been built yet. `mailroom hook …` runs a separate tiny bundle so hooks stay fast.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const isHook = process.argv[2] === 'hook';
const bundle = path.join(root, 'out', 'cli', isHook ? 'hook.mjs' : 'cli.mjs');

if (fs.existsSync(bundle)) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(root, 'electron', 'core', isHook ? 'domains/sessions/hook-cli.ts' : 'entry/cli-entry.ts')).href);
}

// postinstall: fetch Electron's binary when the network allows, and never fail the install when
// it does not (servers, CI, offline machines) — Mailroom then runs headless. Electron's own
// install script is denied in package.json's allowScripts so that its failure cannot break `npm install`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const installer = path.join(root, 'node_modules', 'electron', 'install.js');
if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD || !fs.existsSync(installer)) process.exit(0);

const r = spawnSync(process.execPath, [installer], { cwd: path.dirname(installer), stdio: ['ignore', 'ignore', 'pipe'], timeout: 180_000 });
if (r.status !== 0) {
  const why = (r.stderr?.toString() ?? '').split('\n').find((l) => /Error|ENOTFOUND|ECONN|timed out/i.test(l))?.trim() ?? 'download failed';
  process.stderr.write(
    `\nmailroom: Electron's binary could not be downloaded (${why}).\n` +
      'Mailroom will run headless (the UI in your browser). For the tray app, retry later with:\n' +
      '  node node_modules/electron/install.js\n\n',
  );
}

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the CLI bundle (`out/cli/*.mjs`, what `bin/mailroom.mjs` runs) once, before any test
 * file starts. Test files used to rebuild it in their own `beforeAll`, so with two workers one file
 * could rewrite the bundle while another was spawning it.
 */
export default function setup(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, stdio: 'inherit' });
}

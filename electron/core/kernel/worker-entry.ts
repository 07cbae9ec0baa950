import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where a worker thread's entry is: next to the calling module when bundled (`<bundled>.mjs|.js`,
 * see scripts/build-cli.mjs and electron.vite.config.ts), or the .ts source under tsx (tests,
 * bench), loaded through an eval'd bootstrap that registers tsx. `from` is the caller's
 * import.meta.url; `source` is relative to it.
 */
export function workerEntry(bundled: string, source: string, from: string): { file: URL | string; eval?: boolean } | undefined {
  if (from.endsWith('.ts')) {
    const req = createRequire(from);
    const api = pathToFileURL(req.resolve('tsx/package.json').replace(/package\.json$/, 'dist/esm/api/index.mjs')).href;
    const entry = new URL(source, from).href;
    return { file: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, eval: true };
  }
  for (const name of [`${bundled}.mjs`, `${bundled}.js`]) {
    const u = new URL(`./${name}`, from);
    if (fs.existsSync(fileURLToPath(u))) return { file: u };
  }
  return undefined;
}

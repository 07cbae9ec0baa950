import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where a vault worker's entry is: next to this module when bundled (`<bundled>.mjs|.js`), or the
 * .ts source under tsx (tests, bench), loaded through an eval'd bootstrap that registers tsx.
 */
export function workerEntry(bundled: string, source: string): { file: URL | string; eval?: boolean } | undefined {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const req = createRequire(here);
    const api = pathToFileURL(req.resolve('tsx/package.json').replace(/package\.json$/, 'dist/esm/api/index.mjs')).href;
    const entry = new URL(source, here).href;
    return { file: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, eval: true };
  }
  for (const name of [`${bundled}.mjs`, `${bundled}.js`]) {
    const u = new URL(`./${name}`, here);
    if (fs.existsSync(fileURLToPath(u))) return { file: u };
  }
  return undefined;
}

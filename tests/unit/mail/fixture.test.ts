import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIR, mailServiceForTest } from './helpers';
import { createNlp } from '../../../electron/core/domains/nlp/index';
import { MailService } from '../../../electron/core/domains/mail/service';

interface Gold {
  inbox: string;
  messages: Record<string, { thread: string; inbound: boolean; urgency?: string; intent?: string }>;
  extraction: Array<{ key: string; schema: string; answer: Record<string, unknown> }>;
}

const gold = JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, 'gold.json'), 'utf8')) as Gold;
const t = mailServiceForTest();
const byKey = new Map<string, string>();

/** Figures printed by this suite (copied into docs/mail.md). */
const figures: Record<string, string> = {};

beforeAll(async () => {
  t.mail.createInbox({ id: 'support', address: gold.inbox });
  const report = await t.mail.importPath('support', path.join(FIXTURE_DIR, 'labelled.mbox'));
  expect(report.failed).toEqual([]);
  for (const id of report.message_ids) {
    const raw = t.mail.store.messageRaw(id).toString('utf8');
    const key = /^X-Fixture: (\S+)/m.exec(raw)?.[1];
    if (key) byKey.set(key, id);
  }
});
afterAll(async () => {
  process.stdout.write(`\nmail fixture figures: ${JSON.stringify(figures)}\n`);
  await t.close();
});

describe('the labelled fixture (tests/fixtures/mail)', () => {
  it('imports every message once, and re-importing adds nothing', async () => {
    expect(byKey.size).toBe(Object.keys(gold.messages).length);
    const again = await t.mail.importPath('support', path.join(FIXTURE_DIR, 'labelled.mbox'));
    expect(again.imported).toBe(0);
    expect(again.duplicates).toBe(Object.keys(gold.messages).length);
  });

  it('threads exactly as the gold threads (pairwise accuracy 100%)', () => {
    const keys = Object.keys(gold.messages);
    let agree = 0;
    let total = 0;
    const wrong: string[] = [];
    for (let i = 0; i < keys.length; i++) {
      for (let j = i + 1; j < keys.length; j++) {
        const a = keys[i];
        const b = keys[j];
        const sameGold = gold.messages[a].thread === gold.messages[b].thread;
        const sameOurs = t.mail.store.message(byKey.get(a)!).thread_id === t.mail.store.message(byKey.get(b)!).thread_id;
        total++;
        if (sameGold === sameOurs) agree++;
        else wrong.push(`${a}~${b}: gold ${sameGold ? 'same' : 'different'}`);
      }
    }
    const threads = new Set(keys.map((k) => t.mail.store.message(byKey.get(k)!).thread_id));
    figures.threading_pairwise_accuracy = `${((100 * agree) / total).toFixed(1)}%`;
    figures.threads = `${threads.size} (gold ${new Set(Object.values(gold.messages).map((m) => m.thread)).size})`;
    expect(wrong).toEqual([]);
  });

  for (const backend of ['taxonomy only', 'taxonomy + on-device models'] as const) {
    it(`triages urgency with ≥ 85% accuracy on the labelled inbound messages (${backend})`, async () => {
      const nlp = backend === 'taxonomy only' ? undefined : await createNlp(t.ctx);
      const svc = nlp ? new MailService(t.ctx, { nlp }) : t.mail;
      const labelled = Object.entries(gold.messages).filter(([, g]) => g.urgency);
      let ok = 0;
      let intentOk = 0;
      const misses: string[] = [];
      for (const [key, g] of labelled) {
        const r = await svc.triageMessage({ message_id: byKey.get(key)!, taxonomy_id: 'default' });
        if (r.urgency === g.urgency) ok++;
        else misses.push(`${key}: ${r.urgency} (gold ${g.urgency})`);
        if (r.intent === g.intent) intentOk++;
      }
      const acc = ok / labelled.length;
      figures[`triage_urgency_accuracy (${backend}${nlp ? `, ${nlp.backend}` : ''})`] = `${(100 * acc).toFixed(1)}% of ${labelled.length}`;
      figures[`triage_intent_accuracy (${backend})`] = `${((100 * intentOk) / labelled.length).toFixed(1)}%`;
      figures[`urgency_misses (${backend})`] = misses.join('; ');
      expect(acc).toBeGreaterThanOrEqual(0.85);
    });
  }

  it('extracts the gold fields with ≥ 90% field accuracy and never invents a value', async () => {
    let right = 0;
    let total = 0;
    const misses: string[] = [];
    for (const ex of gold.extraction) {
      const r = await t.mail.extract({ message_id: byKey.get(ex.key)!, schema_id: ex.schema });
      for (const [field, want] of Object.entries(ex.answer)) {
        total++;
        if (JSON.stringify(r.data[field]) === JSON.stringify(want)) right++;
        else misses.push(`${ex.key}.${field}: ${JSON.stringify(r.data[field])} (gold ${JSON.stringify(want)})`);
      }
      // Fields with no gold answer are absent from the message: they must stay empty.
      const { schema } = t.mail.files.schema(ex.schema);
      for (const f of Object.keys(schema.properties as object)) {
        if (!(f in ex.answer) && f in r.data) misses.push(`${ex.key}.${f}: invented ${JSON.stringify(r.data[f])}`);
      }
    }
    figures.extraction_field_accuracy = `${((100 * right) / total).toFixed(1)}% of ${total}`;
    figures.extraction_misses = misses.join('; ');
    expect(right / total).toBeGreaterThanOrEqual(0.9);
    expect(misses.filter((m) => m.includes('invented'))).toEqual([]);
  });

  it('keeps HTML sanitised: no scripts, handlers or remote images, and flags the remote content', () => {
    const m = t.mail.store.message(byKey.get('html1')!);
    expect(m.html).toBeTruthy();
    expect(m.html).not.toMatch(/<script|onerror|ads\.example/i);
    expect(m.remote_content).toBe(true);
    expect(m.text).toMatch(/interested in a demo/i);
  });

  it('decodes non-ASCII headers and lists attachments', () => {
    const de = t.mail.store.message(byKey.get('de1')!);
    expect(de.subject).toBe('Frage zur Rechnung – Überweisung');
    expect(de.from).toEqual({ name: 'Jürgen Müller', email: 'juergen.mueller@beispiel.example' });
    const att = t.mail.store.message(byKey.get('att1')!);
    expect(att.attachments.map((a) => a.filename)).toEqual(['receipt-0317.pdf']);
  });
});

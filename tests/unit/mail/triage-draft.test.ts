import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailServiceForTest } from './helpers';

const DEV = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../fixtures/mail-dev');
const read = (f: string) => fs.readFileSync(path.join(DEV, f), 'utf8');
const t = mailServiceForTest({}, {
  '_brain_config/mail/taxonomies/priya.yaml': read('taxonomy.yaml'),
  '_brain_config/mail/policies/priya.md': read('policy.md'),
});
const byMid = new Map<string, string>();
const mid = (m: string) => byMid.get(m)!;
const msg = (i: number, subject: string, text: string, extra = '', from = 'Rosa Diaz <rosa@fernhill.example>') =>
  `From: ${from}\nTo: priya@fernhill.example\nSubject: ${subject}\nMessage-ID: <new-${i}@t>\nDate: Mon, 0${i} Nov 2026 10:00:00 +0000\n${extra}\n${text}\n`;

beforeAll(async () => {
  t.mail.createInbox({ id: 'p', address: 'priya@fernhill.example' });
  await t.mail.importPath('p', path.join(DEV, 'mailbox.mbox'));
  for (const r of t.db.prepare('SELECT id, internet_message_id FROM mail_messages').all() as Array<{ id: string; internet_message_id: string }>) byMid.set(r.internet_message_id.slice(1, -1), r.id);
});
afterAll(() => t.close());

describe('triage with a map taxonomy and prose levels', () => {
  it('keeps an acknowledged incident high until a message says it is resolved', async () => {
    const seq = ['alert-7731@pager.example', 'ack-1@fernhill.example', 'ack-2@fernhill.example', 'ack-3@fernhill.example'];
    const got: string[] = [];
    for (const m of seq) got.push((await t.mail.triageMessage({ message_id: mid(m), taxonomy_id: 'priya' })).urgency);
    // "All clear … no need to do anything tonight": no longer high (low or medium by the person's definitions).
    expect(got.slice(0, 3)).toEqual(['high', 'high', 'high']);
    expect(got[3]).not.toBe('high');
  });

  it('a newsletter from a bulk sender is low, reading; an unsafe home is high', async () => {
    expect(await t.mail.triageMessage({ message_id: mid('digest-0911@dataweekly.example'), taxonomy_id: 'priya' })).toMatchObject({ intent: 'reading', urgency: 'low' });
    expect(await t.mail.triageMessage({ message_id: mid('boiler@lettings.example'), taxonomy_id: 'priya' })).toMatchObject({ intent: 'household', urgency: 'high', sentiment: 'negative' });
  });

  it('follows a person\'s relabel next time for similar mail (nearest neighbour over earlier relabels)', async () => {
    // Parking-permit mail fits no description well; the person files it under bills once.
    const r = await t.mail.importItems('p', [
      { raw: Buffer.from(msg(1, 'Parking permit renewal for Flat 4', 'The residents parking permit for zone K renews next month. Renew online with your permit number PK-2231.', '', 'Council Parking <permits@council.example>')), name: 'a' } as never,
      { raw: Buffer.from(msg(2, 'Your parking permit for zone K', 'Residents parking permit zone K: renew online with permit number PK-9981 before it lapses.', '', 'Council Parking <permits@council.example>')), name: 'b' } as never,
    ]);
    const [first, second] = r.message_ids;
    const before = await t.mail.triageMessage({ message_id: second, taxonomy_id: 'priya' });
    const urgency = before.urgency === 'medium' ? 'high' : 'medium';
    t.mail.relabel({ message_id: first, intent: before.intent === 'bills' ? 'household' : 'bills', urgency, taxonomy_id: 'priya' });
    const want = before.intent === 'bills' ? 'household' : 'bills';
    const after = await t.mail.triageMessage({ message_id: second, taxonomy_id: 'priya' });
    expect(after.intent).toBe(want);
    expect(after.urgency).toBe(urgency);
    expect(after.intent).not.toBe(before.intent);
    expect(() => t.mail.relabel({ message_id: first, intent: 'nope', taxonomy_id: 'priya' })).toThrow(/not in taxonomy 'priya'/);
  });
});

describe('drafts under a plain-markdown policy, without an LLM', () => {
  it('greets by first name, answers the requests, leaves NEEDS APPROVAL placeholders for dates and money, signs and stays short', async () => {
    const m = t.mail.store.message(mid('churn-ask@fernhill.example'));
    const d = await t.mail.draftReply({ thread_id: m.thread_id, policy_id: 'priya', goal: 'Reply to this message.' });
    expect(d.generator).toBe('template');
    expect(d.body).toMatch(/^Hi Amara,/);
    expect(d.body).toMatch(/send you the August churn numbers/);
    expect(d.body).toMatch(/\[NEEDS APPROVAL: [^\]]*EUR 3,000/);
    expect(d.body).not.toMatch(/Reply to this message/i);
    expect(d.body.trim().endsWith('Priya')).toBe(true);
    expect(d.body.split(/\s+/).length).toBeLessThanOrEqual(150);
    expect(d.risk_flags).toContain('needs_approval_placeholder');
    expect(d.needs_human_approval).toBe(true);
  });

  it('uses the goal as the stance, never pasting the instruction', async () => {
    const m = t.mail.store.message(mid('sis-lunch@mailbox.example'));
    const d = await t.mail.draftReply({ thread_id: m.thread_id, policy_id: 'priya', goal: 'accept the invitation' });
    expect(d.body).toMatch(/^Hello Anjali,/); // external: a little more formal
    expect(d.body).not.toMatch(/accept the invitation/i);
    expect(d.risk_flags).toContain('external_recipients');
  });

  it('refuses to draft a reply to an automated sender when the policy says so', async () => {
    const m = t.mail.store.message(mid('pnr-q7k2lm@flytap.example'));
    await expect(t.mail.draftReply({ thread_id: m.thread_id, policy_id: 'priya', goal: 'thank them' })).rejects.toMatchObject({ code: 'automated_sender' });
    // The built-in policy has no such rule.
    await expect(t.mail.draftReply({ thread_id: m.thread_id, policy_id: 'default', goal: 'thank them' })).resolves.toMatchObject({ generator: 'template' });
  });
});

describe('reply building blocks', () => {
  it('turns requests into first-person answers and date/money asks into placeholders', async () => {
    const { answerLine, flipPerson } = await import('../../../electron/core/domains/mail/draft');
    expect(flipPerson('send me your notes and say when you could deliver')).toBe('send you my notes and say when I could deliver');
    expect(answerLine('Could you send me the slides?', 'open')).toBe("I'll send you the slides.");
    expect(answerLine('Could you fix them by tomorrow 10:00 CET?', 'open')).toMatch(/^\[NEEDS APPROVAL: date — fix them by tomorrow 10:00 CET\]$/);
    expect(answerLine('Can we get a 10% discount on the renewal?', 'open')).toMatch(/^\[NEEDS APPROVAL: amount/);
    expect(answerLine('Are you in for the 18k on Sunday?', 'open')).not.toMatch(/NEEDS APPROVAL/);
  });

  it('greets a person by first name, and an organisation without one', async () => {
    const { firstName } = await import('../../../electron/core/domains/mail/draft');
    const row = (name: string | undefined, email: string, text = '') => ({ from: name ? { name, email } : { email }, text }) as never;
    expect(firstName(row('Okoye, Amara', 'amara@x.example'))).toBe('Amara');
    expect(firstName(row('Agency Lingua', 'pm@lingua.example', 'Please fix it.'))).toBeUndefined();
    expect(firstName(row('Direct client', 'anna@shop.example'))).toBe('Anna');
    expect(firstName(row(undefined, 'orders@shop.example', 'Hi,\nplease confirm.\nThanks,\nMarek'))).toBe('Marek');
  });
});

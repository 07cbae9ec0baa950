/**
 * Specifications of the general mechanisms behind urgency and extraction (round 4): each one is
 * stated in a test name and shown on mail invented for it, not on any fixture's wording.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { mailServiceForTest } from './helpers';
import { disruptionLevel, levelHorizon, ownWords, saysResolved, urgencyOf, withoutPastEvents, type UrgencyInput } from '../../../electron/core/domains/mail/urgency';
import { domainNames, eventBlock, withoutForwardDates } from '../../../electron/core/domains/mail/extract';
import { findDateTimes } from '../../../electron/core/domains/mail/datetime';
import { findTimes } from '../../../electron/core/domains/mail/parsers';
import { latestText } from '../../../electron/core/domains/mail/text';
import type { Taxonomy } from '../../../electron/core/domains/mail/config';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

const taxOf = (prose: Partial<Record<'low' | 'medium' | 'high', string>>): Taxonomy => ({ id: 't', name: 't', intents: [{ id: 'x', description: 'x', examples: [] }], precedence: [], urgency: { high: [], low: [], medium: [], prose }, sentiment: { cues: {}, prose: {} } });

describe('urgency signals read what this message says now', () => {
  it('a reply that repeats the thread\'s subject adds none of its words; links, paths and identifiers are no words', () => {
    expect(ownWords('RE: URGENT: printers offline', 'Thanks, all good now.', ['URGENT: printers offline'])).not.toMatch(/URGENT/);
    expect(ownWords('RE: printers offline -- still failing', 'See above.', ['printers offline'])).toMatch(/still failing/);
    const w = ownWords('Review wanted', 'Please look at docs/disk-full-error.md and https://ci.example/build/error-42', []);
    expect(w).not.toMatch(/error/);
  });

  it('an alarm word naming a past event is history', () => {
    expect(withoutPastEvents("After Tuesday's outage we wrote a checklist")).not.toMatch(/outage/);
    expect(withoutPastEvents('The outage is ongoing')).toMatch(/outage/);
  });

  it('resolution counts only when not negated or qualified as "yet"', () => {
    expect(saysResolved('The queue is fixed and drained.')).toBe(true);
    expect(saysResolved("Please don't announce that it's fixed yet.")).toBe(false);
    expect(saysResolved('We are not out of it yet, nothing is resolved.')).toBe(false);
    expect(saysResolved('Payments have been working normally since noon.')).toBe(true);
  });

  it('a change to something arranged goes to the level whose definition speaks of such changes, else medium', () => {
    expect(disruptionLevel(taxOf({ high: 'a train was cancelled today', medium: 'questions' }))).toBe('high');
    expect(disruptionLevel(taxOf({ high: 'fire', medium: 'a booking that changed and may need rebooking' }))).toBe('medium');
    expect(disruptionLevel(taxOf({}))).toBe('medium');
  });

  it('the horizon of "soon" is the person\'s own: hours, a day or two, this week, about ten days', () => {
    expect(levelHorizon('needs me within hours', 2)).toBe(1);
    expect(levelHorizon('will go wrong within a day or two', 7)).toBe(2);
    expect(levelHorizon('roughly this week, a bill due within about ten days', 7)).toBe(10);
    expect(levelHorizon('bills due weeks from now', 7)).toBe(7);
    expect(levelHorizon(undefined, 7)).toBe(7);
  });

  it('a deadline inside the person\'s medium horizon is medium, and the verdict names the signals that decided it', () => {
    const base: UrgencyInput = { subject: 'Your plan renews', body: 'Your subscription renews on 12 March 2026. Please check the card on file.', full: '', date: new Date('2026-03-03T09:00:00Z'), senderWords: '', tax: taxOf({ medium: 'a renewal due within about ten days', low: 'bills due weeks from now' }), earlier: [], neighbours: [] };
    const v = urgencyOf(base);
    expect(v.urgency).toBe('medium');
    expect(v.reasons.some((r) => r.signal.startsWith('deadline') && r.level === 'medium')).toBe(true);
    // the same message for someone whose "soon" is a week: nine days is not yet pressing
    const week = urgencyOf({ ...base, tax: taxOf({ medium: 'this week', low: 'later' }) });
    expect(week.reasons.some((r) => r.signal.startsWith('deadline') && r.level === 'medium')).toBe(false);
  });

  it('a notifier relaying a person\'s ask of the reader is an ask, not a broadcast', () => {
    const v = urgencyOf({ subject: '[repo] Fix cache (PR #12)', body: '@sam requested your review on this pull request.', full: '', date: new Date('2026-03-03T09:00:00Z'), senderWords: '', facts: { headers: { 'list-unsubscribe': '<mailto:u@x.example>' }, events: [], senderKind: 'automated' }, tax: taxOf({}), earlier: [], neighbours: [] });
    expect(v.reasons.some((r) => r.signal === 'relayed ask')).toBe(true);
    expect(v.reasons.some((r) => r.signal === 'automated, no alarm')).toBe(false);
  });
});

describe('urgency over a thread (end to end)', () => {
  const tax = ['intents:', '  ops:', '    description: Systems at work breaking or being fixed.', '  money:', '    description: Bills and refunds.', 'urgency:', '  high: production is down or degraded until it is resolved; a deadline today.', '  medium: an answer from me this week.', '  low: nothing needed from me — confirmations, notices that something was resolved, thank-you notes.'].join('\n');
  const t = mailServiceForTest({}, { '_brain_config/mail/taxonomies/me.yaml': tax });
  afterAll(() => t.close());
  let n = 0;
  async function triage(from: string, subject: string, text: string, irt?: string, hour = 8): Promise<{ urgency: string; mid: string }> {
    if (!t.mail.store.findInbox('me')) t.mail.createInbox({ id: 'me', address: 'kim@corp.example' });
    const mid = `t${++n}@test.example`;
    const raw = `From: ${from}\nTo: kim@corp.example\nSubject: ${subject}\nMessage-ID: <${mid}>\nDate: Tue, 03 Mar 2026 ${String(hour).padStart(2, '0')}:00:00 +0000\n${irt ? `In-Reply-To: <${irt}>\nReferences: <${irt}>\n` : ''}Content-Type: text/plain; charset=utf-8\n\n${text}\n`;
    await t.mail.importItems('me', [{ raw: Buffer.from(raw), source: `${mid}.eml` }]);
    const id = (t.db.prepare('SELECT id FROM mail_messages WHERE internet_message_id = ?').get(`<${mid}>`) as { id: string }).id;
    return { urgency: (await t.mail.triageMessage({ message_id: id, taxonomy_id: 'me' })).urgency, mid };
  }

  it('an incident stays high while a colleague says it is "not fixed yet", and the customer\'s later claim under the thread\'s URGENT subject is an ask, not an alarm', async () => {
    const a = await triage('Ana <ana@corp.example>', 'URGENT: checkout is down', 'Checkout is down for all shops since 07:40, customers cannot pay.', undefined, 8);
    expect(a.urgency).toBe('high');
    const b = await triage('Raj <raj@corp.example>', 'Re: URGENT: checkout is down', 'Found the bad deploy and rolled back, but errors are still at 5%. Please do not say it is fixed yet.', a.mid, 9);
    expect(b.urgency).toBe('high');
    const c = await triage('Lee <lee@shop.example>', 'Re: URGENT: checkout is down', 'Payments have been working normally since noon. Please confirm the service credit for Monday by Friday.\n\n-----Mensaje original-----\nDe: Ana\nURGENT: checkout is down, outage, customers cannot pay', b.mid, 10);
    expect(c.urgency).toBe('medium');
  });
});

describe('text and time helpers the mechanisms stand on', () => {
  it('an Outlook original in another language ends the latest text; a forwarded message does not', () => {
    expect(latestText('Thanks!\n\n-----Message d\'origine-----\nDe: A\nold text')).toBe('Thanks!');
    expect(latestText('FYI\n\n---------- Forwarded message ---------\nFrom: B\nthe content')).toContain('the content');
  });

  it('"UTC+01:00" is an offset, never a clock time; an explicit offset later on a time\'s line is its zone', () => {
    expect(findTimes('local time, UTC+01:00').length).toBe(0);
    const found = findDateTimes('Date       Friday, 20 March 2026\nDeparture  06:10  Oslo (OSL)   local time, UTC+01:00\nArrival    07:55  Dublin (DUB), T1   local time, UTC+00:00', new Date('2026-03-01T00:00:00Z'));
    expect(found.map((f) => Date.parse(f.value))).toEqual([Date.parse('2026-03-20T06:10:00+01:00'), Date.parse('2026-03-20T07:55:00+00:00')]);
  });

  it('a time on the line after one that had a date shares that date, with its own zone', () => {
    const found = findDateTimes('Saturday, 4 April 2026\n\n  Oslo (OSL)   09:15  Central European Summer Time (CEST)\n  Dublin (DUB)  10:50  Irish Standard Time (IST)', new Date('2026-03-01T00:00:00Z'));
    expect(found.map((f) => Date.parse(f.value))).toEqual([Date.parse('2026-04-04T09:15:00+02:00'), Date.parse('2026-04-04T10:50:00+01:00')]);
  });

  it('a forwarded header block\'s date line is blanked, positions unchanged', () => {
    const text = 'See below\n\nFrom: Air <no-reply@air.example>\nDate: Sun, 1 Mar 2026 at 20:51\nSubject: Trip\nTo: <a@b.example>\n\nFlight 2 April';
    const out = withoutForwardDates(text);
    expect(out.length).toBe(text.length);
    expect(out).not.toMatch(/20:51/);
    expect(out).toMatch(/Subject: Trip/);
  });

  it('the name a sender\'s domain spells is found as the message writes it, with a legal form after it', () => {
    expect(domainNames('billing@mail.birchworks.example', 'Thanks from Birch Works GmbH, Berlin').map((d) => d.value)).toEqual(['Birch Works GmbH']);
    expect(domainNames('x@birchworks.example', 'see https://birchworks.example/x or info@birchworks.example')).toEqual([]);
  });

  it('an event written as title / when / where lines gives a title and a place', () => {
    const b = eventBlock('Hi both,\n\n  Annual review – Kim Lund\n  Tuesday 10 March 2026, 14:00–14:30\n  Room 4.2, North wing\n\nBest', new Date('2026-03-01T00:00:00Z'));
    expect(b.title?.value).toBe('Annual review – Kim Lund');
    expect(b.place?.value).toBe('Room 4.2, North wing');
  });
});

describe('schema-driven extraction mechanisms (end to end)', () => {
  const invoice = { type: 'object', additionalProperties: false, properties: { vendor: { type: 'string', description: 'Name of the supplier business that issued the invoice.' }, invoice_number: { type: 'string', description: "The supplier's invoice number, exactly as printed." }, subtotal: { type: 'number', description: 'Net amount before VAT.' }, total: { type: 'number', description: 'Total including VAT.' }, currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' } }, required: ['vendor', 'invoice_number', 'total', 'currency'] };
  const flight = { type: 'object', additionalProperties: false, properties: { from_airport: { type: 'string', pattern: '^[A-Z]{3}$', description: 'IATA code of the departure airport.' }, to_airport: { type: 'string', pattern: '^[A-Z]{3}$', description: 'IATA code of the arrival airport.' }, departure: { type: 'string', format: 'date-time' }, arrival: { type: 'string', format: 'date-time' } }, required: ['from_airport', 'to_airport', 'departure'] };
  const meeting = { type: 'object', additionalProperties: false, properties: { title: { type: 'string' }, start: { type: 'string', format: 'date-time' }, attendees: { type: 'array', items: { type: 'string', format: 'email' } }, location: { type: 'string', description: 'Physical place: room or address.' } }, required: ['title', 'start'] };
  const t = mailServiceForTest({}, { '_brain_config/mail/schemas/invoice.json': JSON.stringify(invoice), '_brain_config/mail/schemas/flight.json': JSON.stringify(flight), '_brain_config/mail/schemas/meeting.json': JSON.stringify(meeting) });
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  afterAll(() => t.close());
  let n = 0;
  async function extract(headers: string, text: string, schema: 'invoice' | 'flight' | 'meeting') {
    if (!t.mail.store.findInbox('me')) t.mail.createInbox({ id: 'me', address: 'kim@corp.example' });
    const mid = `x${++n}@test.example`;
    const raw = `${headers}\nTo: Kim Lund <kim@corp.example>\nMessage-ID: <${mid}>\nDate: Mon, 02 Mar 2026 10:00:00 +0100\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n${text}\n`;
    await t.mail.importItems('me', [{ raw: Buffer.from(raw), source: `${mid}.eml` }]);
    const id = (t.db.prepare('SELECT id FROM mail_messages WHERE internet_message_id = ?').get(`<${mid}>`) as { id: string }).id;
    const r = await t.mail.extract({ message_id: id, schema_id: schema });
    expect(ajv.validate({ invoice, flight, meeting }[schema], r.data), JSON.stringify(r)).toBe(true);
    return r.data;
  }

  it('an identifier field takes the identifier at the start of its label\'s value, never a postcode or a date; a lone currency code labels code-less amounts; subtotal and total may be equal', async () => {
    const d = await extract('From: Mia Holt <mia@birch-works.example>\nSubject: Invoice', 'Hi Kim,\n\n BIRCH WORKS  ·  joinery\n Invoice date:  02.03.2026\n Invoice no.:   BW/26-0077\n Billed to:     Corp AS, Storgata 9, 0155 Oslo\n\n Description                Amount NOK\n Shelving                     8,400.00\n Subtotal                     8,400.00\n VAT 0 %                          0.00\n TOTAL NOK                    8,400.00\n\nPayable to Birch Works, account 1234.56.78901', 'invoice');
    expect(d).toMatchObject({ invoice_number: 'BW/26-0077', subtotal: 8400, total: 8400, currency: 'NOK' });
    expect(String(d.vendor).toLowerCase()).toBe('birch works');
  });

  it('two clear airports and two times of one segment go in the order written; the forward\'s own date is not the departure', async () => {
    const d = await extract('From: Ola <ola@home.example>\nSubject: Fwd: Your trip', 'Booked!\n\n---------- Forwarded message ---------\nFrom: Fjord Air <no-reply@fjordair.example>\nDate: Sun, 1 Mar 2026 at 19:02\nSubject: Your trip\nTo: <ola@home.example>\n\n  Fjord Air · FJ 402\n  Saturday, 4 April 2026\n\n  Oslo (OSL)    09:15   Central European Summer Time (CEST)\n  Dublin (DUB)  10:50   Irish Standard Time (IST)\n', 'flight');
    expect(d.from_airport).toBe('OSL');
    expect(d.to_airport).toBe('DUB');
    expect(Date.parse(String(d.departure))).toBe(Date.parse('2026-04-04T09:15:00+02:00'));
    expect(Date.parse(String(d.arrival))).toBe(Date.parse('2026-04-04T10:50:00+01:00'));
  });

  it('an invitation written as lines gives its own title and place, and a labelled list of attendees goes on over indented lines', async () => {
    const d = await extract('From: Eva Berg <eva@school.example>\nSubject: Annual review – Kim Lund (team B)', 'Dear Kim,\n\n  Annual review – Kim Lund\n  Tuesday 10 March 2026, 14:00–14:30 (CET)\n  Room 4.2, North wing\n  Attendees: Eva Berg (eva@school.example),\n             Kim Lund (kim@corp.example)\n\nBest,\nEva', 'meeting');
    expect(d.title).toBe('Annual review – Kim Lund');
    expect(d.location).toBe('Room 4.2, North wing');
    expect(new Set(d.attendees as string[])).toEqual(new Set(['eva@school.example', 'kim@corp.example']));
  });
});

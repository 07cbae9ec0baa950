import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { mailServiceForTest } from './helpers';
import { evaluateMailSet, type MailEval } from '../../../bench/_mail-eval';
import { parseIcs } from '../../../electron/core/domains/mail/ical';
import { findDateTimes } from '../../../electron/core/domains/mail/datetime';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
const DEV = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../fixtures/mail-dev');
const read = (f: string) => fs.readFileSync(path.join(DEV, f), 'utf8');

let ev: MailEval;
beforeAll(async () => {
  ev = await evaluateMailSet(DEV);
  process.stdout.write(`\nmail-dev figures: ${JSON.stringify({ ...ev, misses: ev.misses })}\n`);
}, 60_000);

describe('a person\'s own taxonomy, schemas and policy (tests/fixtures/mail-dev, in-sample)', () => {
  it('threads perfectly', () => expect(ev.threading).toBe(1));

  it('triages intent, urgency and sentiment above the keyword and majority baselines of the same run', () => {
    expect(ev.intent).toBeGreaterThanOrEqual(0.9);
    expect(ev.intent).toBeGreaterThan(ev.baseline.intent_majority);
    expect(ev.intent).toBeGreaterThanOrEqual(ev.baseline.intent_keyword);
    expect(ev.urgency).toBeGreaterThanOrEqual(0.8);
    expect(ev.urgency).toBeGreaterThan(Math.max(ev.baseline.urgency_keyword, ev.baseline.urgency_majority));
    expect(ev.sentiment).toBeGreaterThanOrEqual(0.8);
    expect(ev.sentiment).toBeGreaterThan(Math.max(ev.baseline.sentiment_keyword, ev.baseline.sentiment_majority));
  });

  it('fills cue-free schemas (HTML-table and aligned-text invoices, flights, invites with text/calendar) with valid output', () => {
    expect(ev.n.extraction_outputs).toBe(6);
    expect(ev.extraction_fields).toBeGreaterThanOrEqual(0.95);
    expect(ev.extraction_valid).toBe(1);
    expect(ev.extraction_fields).toBeGreaterThan(ev.baseline.extraction_regex_fields);
  });

  it('drafts are signed as the plain-markdown policy says and within its 150-word limit', () => {
    expect(ev.n.drafts).toBe(3);
    expect(ev.drafts_signed).toBe(1);
    expect(ev.drafts_within_limit).toBe(1);
  });
});

describe('schema-driven extraction on wording the dev set does not have', () => {
  const t = mailServiceForTest({}, {
    '_brain_config/mail/schemas/flight.json': read('schemas/flight.json'),
    '_brain_config/mail/schemas/invoice.json': read('schemas/invoice.json'),
    '_brain_config/mail/schemas/meeting.json': read('schemas/meeting.json'),
  });
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  afterAll(() => t.close());
  let n = 0;
  async function one(raw: string) {
    const id = `x${++n}`;
    if (!t.mail.store.findInbox('me')) t.mail.createInbox({ id: 'me', address: 'jo@home.example' });
    const r = await t.mail.importItems('me', [{ raw: Buffer.from(raw.replace(/MSGID/g, id)), name: id } as never]);
    return r.message_ids[0];
  }
  const valid = (schema: string, data: unknown) => {
    const s = JSON.parse(read(`schemas/${schema}.json`)) as Record<string, unknown>;
    return ajv.validate(s, data);
  };

  it('a flight written as prose: IATA codes by the schema pattern, zone names → offsets, and nothing invented', async () => {
    const id = await one(
      'From: SwissWings <noreply@swisswings.example>\nTo: jo@home.example\nSubject: Your trip to Lisbon\nMessage-ID: <MSGID@t>\nDate: Mon, 01 Feb 2027 10:00:00 +0100\n\nDear Jo, your flight LX 1071 from Zurich (ZRH) to Lisbon (LIS) leaves on 3 March 2027 at 09:15 CET and lands at 11:05 WET. Have a good trip.\n',
    );
    const r = await t.mail.extract({ message_id: id, schema_id: 'flight' });
    expect(r.data).toMatchObject({ flight_number: 'LX 1071', origin: 'ZRH', destination: 'LIS' });
    expect(Date.parse(r.data.departs_at as string)).toBe(Date.parse('2027-03-03T09:15:00+01:00'));
    expect(Date.parse(r.data.arrives_at as string)).toBe(Date.parse('2027-03-03T11:05:00Z'));
    expect(r.data.booking_reference).toBeUndefined();
    expect(valid('flight', r.data)).toBe(true);
  });

  it('an invoice whose total sits in a label cell → next cell HTML row, with thousands separators', async () => {
    const id = await one(
      'From: Kiln & Co <mail@kiln.example>\nTo: jo@home.example\nSubject: Invoice\nMessage-ID: <MSGID@t>\nDate: Tue, 02 Feb 2027 10:00:00 +0000\nMIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n<p>Invoice # K-7781, dated 2 February 2027.</p><table><tr><td>Pottery course (spring)</td><td>$1,080.00</td></tr><tr><td>Amount due</td><td>$1,296.00</td></tr><tr><td>Pay by</td><td>March 1, 2027</td></tr></table>',
    );
    const r = await t.mail.extract({ message_id: id, schema_id: 'invoice' });
    expect(r.data).toMatchObject({ invoice_number: 'K-7781', total: 1296, currency: 'USD', due_date: '2027-03-01', issue_date: '2027-02-02' });
    expect(valid('invoice', r.data)).toBe(true);
  });

  it('an invite without a calendar part still gives title, start/end with the zone, room and link; the URL is not part of the room', async () => {
    const id = await one(
      'From: Ola Berg <ola@work.example>\nTo: jo@home.example\nSubject: Invitation: Budget walkthrough\nMessage-ID: <MSGID@t>\nDate: Tue, 02 Feb 2027 10:00:00 +0100\n\nWhen: 2027-02-09 15:00 – 2027-02-09 16:00 (Europe/Oslo)\nWhere: Room Fjord, https://teams.example/l/meetup-join/abc\n',
    );
    const r = await t.mail.extract({ message_id: id, schema_id: 'meeting' });
    expect(r.data.title).toBe('Budget walkthrough');
    expect(Date.parse(r.data.start as string)).toBe(Date.parse('2027-02-09T15:00:00+01:00'));
    expect(Date.parse(r.data.end as string)).toBe(Date.parse('2027-02-09T16:00:00+01:00'));
    expect(r.data.video_link).toBe('https://teams.example/l/meetup-join/abc');
    expect(r.data.location).toBe('Room Fjord');
    expect(valid('meeting', r.data)).toBe(true);
  });
});

describe('line items from tables', () => {
  it('fills an array of objects from an aligned plain-text table (header → properties), stopping at the totals', async () => {
    const { extractToSchema } = await import('../../../electron/core/domains/mail/extract');
    const schema = { type: 'object', properties: { line_items: { type: 'array', items: { type: 'object', additionalProperties: false, properties: { description: { type: 'string' }, quantity: { type: 'integer' }, amount: { type: 'number' } }, required: ['description'] } } } };
    const text = 'Description              Qty    Amount\nA1 posters, matte         12    EUR 1,140.00\nDelivery                   1    EUR    35.00\nTotal                           EUR 1,175.00';
    const r = await extractToSchema({ subject: 'Invoice', text, html: null, created_at: '2026-09-09T10:00:00Z', from: null, to: [], cc: [] } as never, schema);
    expect(r.data.line_items).toEqual([
      { description: 'A1 posters, matte', quantity: 12, amount: 1140 },
      { description: 'Delivery', quantity: 1, amount: 35 },
    ]);
  });
});

describe('parsers', () => {
  it('reads VEVENTs: folded lines, TZID → offset (DST-aware), UTC, attendees and organizer', () => {
    const ev = parseIcs('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Long \r\n title\r\nDTSTART;TZID=Europe/London:20270115T090000\r\nDTEND;TZID="Europe/London":20270715T090000\r\nATTENDEE;CN="A, B":mailto:a@x.example\r\nORGANIZER:mailto:o@x.example\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nDTSTART:20270101T120000Z\r\nEND:VEVENT\r\nEND:VCALENDAR');
    expect(ev[0]).toMatchObject({ summary: 'Long title', start: '2027-01-15T09:00:00+00:00', end: '2027-07-15T09:00:00+01:00', organizer: { email: 'o@x.example' } });
    expect(ev[0].attendees).toEqual([{ email: 'a@x.example', name: 'A, B' }]);
    expect(ev[1].start).toBe('2027-01-01T12:00:00+00:00');
    // Outlook's Windows zone ids, and a custom TZID resolved from the calendar's own VTIMEZONE
    const ol = parseIcs('BEGIN:VCALENDAR\nBEGIN:VTIMEZONE\nTZID:Custom Zone\nBEGIN:STANDARD\nTZOFFSETTO:+0100\nEND:STANDARD\nBEGIN:DAYLIGHT\nTZOFFSETTO:+0200\nEND:DAYLIGHT\nEND:VTIMEZONE\nBEGIN:VEVENT\nDTSTART;TZID=Custom Zone:20260917T140000\nDTEND;TZID=W. Europe Standard Time:20261217T150000\nEND:VEVENT\nEND:VCALENDAR');
    expect(ol[0]).toMatchObject({ start: '2026-09-17T14:00:00+02:00', end: '2026-12-17T15:00:00+01:00' });
  });

  it('date-times with abbreviations, numeric offsets and IANA names; none without a zone unless a default is given', () => {
    const ref = new Date('2027-01-01T00:00:00Z');
    expect(findDateTimes('Departs 12 Sep 2026 at 07:40 WEST', ref).map((d) => d.value)).toEqual(['2026-09-12T07:40:00+01:00']);
    expect(findDateTimes('2026-09-25 18:05 +02:00', ref).map((d) => d.value)).toEqual(['2026-09-25T18:05:00+02:00']);
    expect(findDateTimes('on 4 July 2027 at 9:30am America/New_York', ref).map((d) => d.value)).toEqual(['2027-07-04T09:30:00-04:00']);
    expect(findDateTimes('on 4 July 2027 at 9:30', ref)).toEqual([]);
    expect(findDateTimes('Thursday 17 September 2026, 14:00 – 15:30 Central European Summer Time', ref).map((d) => d.value)).toEqual(['2026-09-17T14:00:00+02:00', '2026-09-17T15:30:00+02:00']);
    expect(findDateTimes('Sep 30, 2026 9:00 AM - 10:00 AM Eastern Time', ref).map((d) => d.value)).toEqual(['2026-09-30T09:00:00-04:00', '2026-09-30T10:00:00-04:00']);
    expect(findDateTimes('on 4 July 2027 at 9:30', ref, '+02:00').map((d) => d.value)).toEqual(['2027-07-04T09:30:00+02:00']);
  });
});

describe('bad input', () => {
  it('never fills prototype-reaching names, and stays fast and valid on a huge message', async () => {
    const { extractToSchema } = await import('../../../electron/core/domains/mail/extract');
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"total":{"type":"number","description":"Total payable"}}}') as Record<string, unknown>;
    const big = 'Total: EUR 12.00\n' + 'lorem 12:00 ipsum 3 March 2026 ABC-123 x@y.example '.repeat(40_000);
    const t0 = performance.now();
    const r = await extractToSchema({ subject: 'Invoice', text: big, html: null, created_at: '2026-03-01T00:00:00Z', from: null, to: [], cc: [] } as never, schema);
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect(r.data.total).toBe(12);
    expect(Object.getPrototypeOf(r.data)).toBe(Object.prototype);
    expect(Object.keys(r.data)).toEqual(['total']);
  });
});

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { evaluateMailSet, type MailEval } from '../../../bench/_mail-eval';
import { mailServiceForTest } from './helpers';
import { nearestDeadline } from '../../../electron/core/domains/mail/deadline';
import { amountFamily, arrowLines, dollarCurrency } from '../../../electron/core/domains/mail/extract';
import { findAmounts, findDates } from '../../../electron/core/domains/mail/parsers';
import { findDateTimes } from '../../../electron/core/domains/mail/datetime';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
const FIX = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../fixtures');

let ev3: MailEval;
let ev4: MailEval;
beforeAll(async () => {
  ev3 = await evaluateMailSet(path.join(FIX, 'mail-dev3'));
  ev4 = await evaluateMailSet(path.join(FIX, 'mail-dev4'));
  process.stdout.write(`\nmail-dev3 figures: ${JSON.stringify(ev3)}\nmail-dev4 figures: ${JSON.stringify(ev4)}\n`);
}, 120_000);

describe('a third and fourth person\'s mailbox (mail-dev3 list taxonomy, mail-dev4 critical/normal/low prose; in-sample)', () => {
  it('reads urgency from prose levels, sender kind, deadlines and thread context well above the baselines', () => {
    expect(ev3.urgency).toBeGreaterThanOrEqual(0.9);
    expect(ev3.urgency).toBeGreaterThan(Math.max(ev3.baseline.urgency_keyword, ev3.baseline.urgency_majority) + 0.3);
    expect(ev4.urgency).toBeGreaterThanOrEqual(0.85);
    expect(ev4.urgency).toBeGreaterThan(Math.max(ev4.baseline.urgency_keyword, ev4.baseline.urgency_majority) + 0.2);
  });

  it('fills cue-free schemas with other field names to ≥ 95% of fields, every output valid', () => {
    expect(ev3.n.extraction_outputs).toBe(13);
    expect(ev3.extraction_fields).toBeGreaterThanOrEqual(0.95);
    expect(ev3.extraction_valid).toBe(1);
    expect(ev4.extraction_fields).toBeGreaterThanOrEqual(0.9);
    expect(ev4.extraction_valid).toBe(1);
  });

  it('signs drafts as the plain-markdown policies say, within their limits', () => {
    expect(ev3.drafts_signed).toBe(1);
    expect(ev3.drafts_within_limit).toBe(1);
    expect(ev4.drafts_signed).toBe(1);
  });
});

describe('deadlines relative to the message date', () => {
  const ref = new Date('2026-03-02T09:00:00Z'); // a Monday
  it('reads dates after deadline words as days from the message date', () => {
    expect(nearestDeadline('Dispatch by: 6 March 2026', ref)?.days).toBe(4);
    expect(nearestDeadline('Your VAT Return is due by 7 March 2026.', ref)?.days).toBe(5);
    expect(nearestDeadline('We need the quote by Friday or we go elsewhere.', ref)?.days).toBe(4);
    expect(nearestDeadline('Update your card within 48 hours.', ref)?.days).toBe(2);
    expect(nearestDeadline('Your domain expires on 3 March 2026.', ref)?.days).toBe(1);
  });
  it('ignores dates that are no deadline, promised arrivals and dates long past', () => {
    expect(nearestDeadline('Your parcel was delivered on 3 March.', ref)).toBeUndefined();
    expect(nearestDeadline('It should arrive within 2 working days.', ref)).toBeUndefined();
    expect(nearestDeadline('Paid by card on 1 February 2026.', ref)).toBeUndefined();
  });
});

describe('values in many shapes', () => {
  it('orders slashed dates by an unambiguous one in the text, else by nearness to the message date; dotted dates are day-first', () => {
    const mar12 = new Date('2026-03-12T12:00:00Z');
    expect(findDates('Invoice date 03/12/2026, due 04/11/2026', mar12).map((d) => d.value)).toEqual(['2026-03-12', '2026-04-11']);
    expect(findDates('Bill date 27/02/2026, collected 03/04/2026', mar12).map((d) => d.value)).toEqual(['2026-02-27', '2026-04-03']);
    expect(findDates('Datum 03.12.2026', mar12)[0].value).toBe('2026-12-03');
    expect(findDates('RL1054 BRS AMS 27MAR2026 17:05', mar12)[0].value).toBe('2026-03-27');
  });

  it('reads currency prefixes, spaced codes and the dollar a message names', () => {
    expect(findAmounts('Total charged: A$79.99')[0].value).toEqual({ amount: 79.99, currency: 'AUD' });
    expect(findAmounts('VAT 8.1%      CHF    94.93')[0].value).toEqual({ amount: 94.93, currency: 'CHF' });
    expect(dollarCurrency('Amount Due (AUD)  $1,903.00')).toBe('AUD');
    expect(dollarCurrency('Total $34.80')).toBe('USD');
  });

  it('tells the lines of a bill apart: net, tax, total', () => {
    expect(amountFamily('Charges before VAT')).toBe('net');
    expect(amountFamily('Subtotal')).toBe('net');
    expect(amountFamily('VAT at 20%')).toBe('tax');
    expect(amountFamily('Sales Tax')).toBe('tax');
    expect(amountFamily('Total incl. VAT')).toBe('total');
    expect(amountFamily('Amount paid')).toBe('total');
    expect(amountFamily('Balance Due')).toBe('total');
    expect(amountFamily('Invoice date')).toBeUndefined();
  });

  it('finds route arrows and turns Windows and IANA zone names into offsets', () => {
    const a = arrowLines('Outbound\nLHR → JFK\nJFK -> LHR\nno arrow here');
    expect(a.map((x) => x.order)).toEqual([0, 1]);
    const ref = new Date('2026-03-02T00:00:00Z');
    expect(findDateTimes('Time: Thursday, March 5, 2026 9:00 AM Pacific Standard Time', ref)[0].value).toBe('2026-03-05T09:00:00-08:00');
    expect(findDateTimes('When: Tuesday 10 March 2026, 14:00–15:00 (Europe/London)', ref)[0].value).toBe('2026-03-10T14:00:00+00:00');
    expect(findDateTimes('Departs Mon 13 April 2026 11:20 BST', ref)[0].value).toBe('2026-04-13T11:20:00+01:00');
  });
});

describe('cue-free extraction on layouts the dev sets need', () => {
  const bill = { type: 'object', additionalProperties: false, properties: { seller: { type: 'string', description: 'Business that charged me' }, ref: { type: 'string', description: 'Receipt or invoice number' }, tax_paid: { type: 'number', description: 'Sales tax' }, total: { type: 'number', description: 'Total including tax' }, cur: { type: 'string', pattern: '^[A-Z]{3}$', description: 'Currency' } }, required: ['ref', 'total', 'cur'] };
  const leg = { type: 'object', additionalProperties: false, properties: { code: { type: 'string', pattern: '^[A-Z0-9]{2}[0-9]{1,4}$', description: 'Flight number' }, dep_airport: { type: 'string', pattern: '^[A-Z]{3}$', description: 'Departure airport' }, arr_airport: { type: 'string', pattern: '^[A-Z]{3}$', description: 'Arrival airport' }, departs: { type: 'string', format: 'date-time' }, arrives: { type: 'string', format: 'date-time' }, passenger: { type: 'string' } }, required: ['code', 'dep_airport', 'arr_airport', 'departs'] };
  const meet = { type: 'object', additionalProperties: false, properties: { title: { type: 'string' }, start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' }, link: { type: 'string', format: 'uri', description: 'Video link' }, guests: { type: 'array', items: { type: 'string', format: 'email' }, description: 'People invited' } }, required: ['title', 'start'] };
  const t = mailServiceForTest({}, { '_brain_config/mail/schemas/bill.json': JSON.stringify(bill), '_brain_config/mail/schemas/leg.json': JSON.stringify(leg), '_brain_config/mail/schemas/meet.json': JSON.stringify(meet) });
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  afterAll(() => t.close());
  let n = 0;
  async function extract(headers: string, body: string, schema: string) {
    if (!t.mail.store.findInbox('me')) t.mail.createInbox({ id: 'me', address: 'jo@home.example' });
    const mid = `u${++n}@test.example`;
    const raw = `${headers}\nTo: Jo Bloggs <jo@home.example>\nMessage-ID: <${mid}>\nDate: Mon, 02 Mar 2026 10:00:00 +0000\nMIME-Version: 1.0\n${body}`;
    await t.mail.importItems('me', [{ raw: Buffer.from(raw), source: `${mid}.eml` }]);
    const id = (t.db.prepare('SELECT id FROM mail_messages WHERE internet_message_id = ?').get(`<${mid}>`) as { id: string }).id;
    const r = await t.mail.extract({ message_id: id, schema_id: schema });
    const s = schema === 'bill' ? bill : schema === 'leg' ? leg : meet;
    expect(ajv.validate(s, r.data), JSON.stringify(r)).toBe(true);
    return r.data;
  }

  it('reads an HTML receipt whose only total is an "Amount paid" label cell, and the vendor from a display name spelling the domain', async () => {
    const d = await extract('From: Lumen <receipts@lumen.example>\nSubject: Your receipt', 'Content-Type: text/html; charset=utf-8\n\n<p>Receipt number: 77-1200</p><table><tr><td>Lumen Plus (monthly)</td><td>$20.00</td></tr><tr><td>Tax</td><td>$1.60</td></tr><tr><td><b>Amount paid</b></td><td><b>$21.60</b></td></tr></table>', 'bill');
    expect(d).toMatchObject({ seller: 'Lumen', ref: '77-1200', tax_paid: 1.6, total: 21.6, cur: 'USD' });
  });

  it('takes "Balance Due" over an items table\'s "Amount" column', async () => {
    const d = await extract('From: Hill Supply LLC <ar@hillsupply.example>\nSubject: Invoice HS-9', 'Content-Type: text/html; charset=utf-8\n\n<table><tr><th>Invoice #</th><th>Date</th></tr><tr><td>HS-9</td><td>03/02/2026</td></tr></table><table><tr><th>Item</th><th>Amount</th></tr><tr><td>Clay</td><td>$300.00</td></tr><tr><td>Subtotal</td><td>$300.00</td></tr><tr><td>Sales Tax</td><td>$24.00</td></tr><tr><td>Balance Due</td><td>$324.00</td></tr></table>', 'bill');
    expect(d).toMatchObject({ seller: 'Hill Supply LLC', ref: 'HS-9', tax_paid: 24, total: 324 });
  });

  it('reads departure and arrival sides of "JFK -> LHR" and "JFK → LHR", the first leg first', async () => {
    const a = await extract('From: Air Example <noreply@air.example>\nSubject: E-ticket', 'Content-Type: text/plain; charset=utf-8\n\nPassenger: DOE/JANE MS\nBA 178  JFK -> LHR  12 March 2026  19:10 EDT -> 07:05 GMT\nBA 179  LHR -> JFK  20 March 2026  11:00 GMT -> 13:55 EDT\n', 'leg');
    expect(a).toMatchObject({ code: 'BA178', dep_airport: 'JFK', arr_airport: 'LHR', departs: '2026-03-12T19:10:00-04:00', passenger: 'Jane Doe' });
    const b = await extract('From: Air Example <noreply@air.example>\nSubject: Your trip', 'Content-Type: text/plain; charset=utf-8\n\nDear Jane Doe,\n\nFlight AA 100\nNew York (JFK) → London Heathrow (LHR)\nDeparts 12 March 2026 18:00 EDT\n', 'leg');
    expect(b).toMatchObject({ code: 'AA100', dep_airport: 'JFK', arr_airport: 'LHR', departs: '2026-03-12T18:00:00-04:00', passenger: 'Jane Doe' });
  });

  it('takes the invited from To/Cc without the inviter, with a Windows zone name written out', async () => {
    const d = await extract('From: Megan Lowe <megan@west.example>\nCc: Sales <sales@west.example>\nSubject: Catalogue review', 'Content-Type: text/plain; charset=utf-8\n\nA video call to walk through the catalogue:\nDate: Thursday, March 5, 2026\nTime: 9:00 AM – 9:45 AM Pacific Standard Time\nJoin Zoom: https://zoom.example/j/881\n', 'meet');
    expect(d).toMatchObject({ title: 'Catalogue review', start: '2026-03-05T09:00:00-08:00', end: '2026-03-05T09:45:00-08:00', link: 'https://zoom.example/j/881' });
    expect([...(d.guests as string[])].sort()).toEqual(['jo@home.example', 'sales@west.example']);
  });
});

describe('urgency from a list of prose level definitions (critical / normal / low), sender kind and thread', () => {
  const tax = [
    'intents:',
    '  - id: work',
    '    description: Work — the workshop, customers, suppliers, the website.',
    '  - id: home',
    '    description: Family and friends.',
    '  - id: admin',
    '    description: Accounts, bills, notifications from services.',
    'urgency:',
    '  - level: critical',
    '    description: something broke or the shop is down, or it will go wrong within a day unless I act; someone may have got into an account; family needs me now.',
    '  - level: normal',
    '    description: someone is waiting for an answer or a task from me this week.',
    '  - level: low',
    '    description: nothing to do — receipts, confirmations, newsletters, updates and friendly chat.',
  ].join('\n');
  const t = mailServiceForTest({}, { '_brain_config/mail/taxonomies/me.yaml': tax });
  afterAll(() => t.close());
  let n = 0;
  async function urgency(headers: string, text: string, irt?: string): Promise<{ urgency: string; mid: string }> {
    if (!t.mail.store.findInbox('me')) t.mail.createInbox({ id: 'me', address: 'jo@home.example' });
    const mid = `g${++n}@test.example`;
    n++;
    const raw = `${headers}\nTo: jo@home.example\nMessage-ID: <${mid}>\nDate: Mon, 02 Mar 2026 ${String(8 + (n % 10)).padStart(2, '0')}:00:00 +0000\n${irt ? `In-Reply-To: <${irt}>\nReferences: <${irt}>\n` : ''}Content-Type: text/plain; charset=utf-8\n\n${text}\n`;
    await t.mail.importItems('me', [{ raw: Buffer.from(raw), source: `${mid}.eml` }]);
    const id = (t.db.prepare('SELECT id FROM mail_messages WHERE internet_message_id = ?').get(`<${mid}>`) as { id: string }).id;
    return { urgency: (await t.mail.triageMessage({ message_id: id, taxonomy_id: 'me' })).urgency, mid };
  }

  it('lifts automated mail only for security wording or a near deadline', async () => {
    expect((await urgency('From: Shopify <security@shop.example>\nAuto-Submitted: auto-generated\nSubject: New sign-in to your shop', 'We noticed a new sign-in from another country. If this wasn\'t you, secure your account now.')).urgency).toBe('high');
    expect((await urgency('From: Market <orders@market.example>\nAuto-Submitted: auto-generated\nSubject: New order 55', 'You have a new order.\nDispatch by: 6 March 2026')).urgency).toBe('medium');
    expect((await urgency('From: Rail <tickets@rail.example>\nAuto-Submitted: auto-generated\nSubject: Your e-ticket', 'Thanks for booking. Your e-ticket for 12 March is attached.')).urgency).toBe('low');
    expect((await urgency('From: Paper News <news@paper.example>\nList-Unsubscribe: <mailto:u@paper.example>\nSubject: 20% off notebooks', 'Stock up: 20% off every notebook until tomorrow. Shop now.')).urgency).toBe('low');
  });

  it('reads names as names: a picnic "on the Downs" is not the shop being down', async () => {
    expect((await urgency('From: Jess <jess@mail.example>\nSubject: Picnic Sunday?', 'Picnic on the Downs on Sunday, weather permitting. Meet by the old bandstand at eleven.')).urgency).toBe('low');
  });

  it('reads a person\'s apology as an ask, not an alarm', async () => {
    expect((await urgency('From: Dev <dev@mail.example>\nSubject: Can’t make tomorrow', 'I’m so sorry, I’ve got flu and won’t make it tomorrow. Could I move to the April class?')).urgency).toBe('medium');
  });

  it('keeps an acknowledged incident high until a reply says it is fixed', async () => {
    const a = await urgency('From: Tom <tom@work.example>\nSubject: Website showing 502', 'The shop has shown a 502 error since 9. Nobody can check out and the launch is at noon.');
    expect(a.urgency).toBe('high');
    const b = await urgency('From: Tom <tom@work.example>\nSubject: Re: Website showing 502', 'Update: the host has acknowledged it, a database node is being replaced. Still 502.', a.mid);
    expect(b.urgency).toBe('high');
    const c = await urgency('From: Tom <tom@work.example>\nSubject: Re: Website showing 502', 'All done — pages load again and orders are coming through.', b.mid);
    expect(c.urgency).toBe('low');
  });
});

describe('more layouts: cells holding "Label: value", <strong> labels, header rows, compounds, calendar text, Outlook TZIDs', () => {
  const bill = { type: 'object', additionalProperties: false, properties: { vendor: { type: 'string' }, number: { type: 'string', description: 'Invoice number' }, date: { type: 'string', format: 'date', description: 'Invoice date' }, due: { type: 'string', format: 'date', description: 'Due date' }, total: { type: 'number', description: 'Amount due' }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } }, required: ['number', 'total', 'currency'] };
  const leg = { type: 'object', additionalProperties: false, properties: { flight: { type: 'string', pattern: '^[A-Z0-9]{2}[0-9]{1,4}$' }, from: { type: 'string', pattern: '^[A-Z]{3}$' }, to: { type: 'string', pattern: '^[A-Z]{3}$' }, departure: { type: 'string', format: 'date-time' }, arrival: { type: 'string', format: 'date-time' } }, required: ['flight', 'from', 'to', 'departure'] };
  const meet = { type: 'object', additionalProperties: false, properties: { title: { type: 'string' }, start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' }, location: { type: 'string' }, attendees: { type: 'array', items: { type: 'string', format: 'email' } } }, required: ['title', 'start'] };
  const t = mailServiceForTest({}, { '_brain_config/mail/schemas/bill.json': JSON.stringify(bill), '_brain_config/mail/schemas/leg.json': JSON.stringify(leg), '_brain_config/mail/schemas/meet.json': JSON.stringify(meet) });
  afterAll(() => t.close());
  let n = 0;
  async function x(headers: string, body: string, schema: string) {
    if (!t.mail.store.findInbox('me')) t.mail.createInbox({ id: 'me', address: 'jo@home.example' });
    const mid = `p${++n}@t.example`;
    const raw = `${headers}\nTo: Jo <jo@home.example>\nMessage-ID: <${mid}>\nDate: Thu, 12 Mar 2026 10:00:00 +0000\nMIME-Version: 1.0\n${body}`;
    await t.mail.importItems('me', [{ raw: Buffer.from(raw), source: `${mid}.eml` }]);
    const id = (t.db.prepare('SELECT id FROM mail_messages WHERE internet_message_id = ?').get(`<${mid}>`) as { id: string }).id;
    return t.mail.extract({ message_id: id, schema_id: schema });
  }
  const H = 'Content-Type: text/html; charset=utf-8\n\n';
  const T = 'Content-Type: text/plain; charset=utf-8\n\n';

  it('reads invoices whose cells hold "Label: value", <strong> labels, header rows and German compounds', async () => {
    expect((await x('From: Acme Ltd <billing@acme.example>\nSubject: Invoice A-1', H + '<table><tr><td>Invoice number: A-1</td></tr><tr><td>Date: 12 March 2026</td></tr><tr><td>Total: $1,234.00</td></tr></table>', 'bill')).data).toEqual({ vendor: 'Acme Ltd', number: 'A-1', date: '2026-03-12', total: 1234, currency: 'USD' });
    expect((await x('From: Acme Ltd <billing@acme.example>\nSubject: Invoice A-2', H + '<p><strong>Invoice no.</strong> A-2<br><strong>Invoice date:</strong> 2026-03-12<br><strong>Amount due:</strong> 1.234,56 €<br><strong>Due by:</strong> 11.04.2026</p>', 'bill')).data).toMatchObject({ number: 'A-2', date: '2026-03-12', due: '2026-04-11', total: 1234.56, currency: 'EUR' });
    expect((await x('From: Acme Ltd <billing@acme.example>\nSubject: Your invoice', H + '<table><tr><th>Invoice Number</th><th>Invoice Date</th><th>Due Date</th><th>Amount Due</th></tr><tr><td>INV-77</td><td>March 12th, 2026</td><td>April 11th, 2026</td><td>GBP 980.00</td></tr></table>', 'bill')).data).toMatchObject({ number: 'INV-77', date: '2026-03-12', due: '2026-04-11', total: 980, currency: 'GBP' });
    expect((await x('From: Acme GmbH <rechnung@acme.example>\nSubject: Rechnung 5', H + '<table><tr><td>Rechnungsnummer</td><td>R-5</td></tr><tr><td>Rechnungsdatum</td><td>12.03.2026</td></tr></table><table><tr><th>Pos</th><th>Total (EUR)</th></tr><tr><td>Beratung</td><td>1.000,00</td></tr><tr><td>Gesamtbetrag</td><td>1.190,00</td></tr></table>', 'bill')).data).toEqual({ vendor: 'Acme GmbH', number: 'R-5', date: '2026-03-12', total: 1190, currency: 'EUR' });
  });

  it('never turns words into a designator ("at 07:15" is no flight "AT07"): a required field it cannot find stays missing', async () => {
    const r = await x('From: Air <noreply@air.example>\nSubject: Trip', T + 'Your flight EZY8012 from Bristol (BRS) to Geneva (GVA) leaves on 19/03/2026 at 07:15 and lands at 10:20 local time (CET).\n', 'leg');
    expect(r.data.flight).toBeUndefined();
    expect(r.missing_fields).toContain('flight');
    expect(r.data).toMatchObject({ from: 'BRS', to: 'GVA' });
    expect((await x('From: Air <noreply@air.example>\nSubject: Trip', T + 'FR 1234 Dublin DUB → Madrid MAD\nDeparture 2026-04-02 06:30 GMT+1\nArrival 2026-04-02 10:05 GMT+2\n', 'leg')).data).toEqual({ flight: 'FR1234', from: 'DUB', to: 'MAD', departure: '2026-04-02T06:30:00+01:00', arrival: '2026-04-02T10:05:00+02:00' });
  });

  it('reads calendar text with headings over value blocks, and Outlook display-name TZIDs with their daylight rules', async () => {
    const g = await x('From: Ann <ann@corp.example>\nSubject: Invitation: Roadmap sync @ Tue 17 Mar 2026 14:00 - 15:00 (CET) (jo@home.example)', T + 'Roadmap sync\nTuesday 17 Mar 2026 ⋅ 14:00 – 15:00\nCentral European Time - Berlin\n\nLocation\nRoom 4.12\n\nGuests\nann@corp.example - organizer\nbob@corp.example\njo@home.example\n', 'meet');
    expect(g.data).toMatchObject({ title: 'Roadmap sync', start: '2026-03-17T14:00:00+01:00', end: '2026-03-17T15:00:00+01:00', location: 'Room 4.12' });
    expect([...(g.data.attendees as string[])].sort()).toEqual(['ann@corp.example', 'bob@corp.example', 'jo@home.example']);
    const tz = '(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna';
    const o = await x('From: Ann <ann@corp.example>\nSubject: Budget review', `Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nSee invite.\n--b\nContent-Type: text/calendar; method=REQUEST\n\nBEGIN:VCALENDAR\nMETHOD:REQUEST\nBEGIN:VTIMEZONE\nTZID:${tz.replace(/,/g, '\\,')}\nEND:VTIMEZONE\nBEGIN:VEVENT\nSUMMARY:Budget review\nDTSTART;TZID="${tz}":20260415T100000\nDTEND;TZID="${tz}":20260415T110000\nLOCATION:Room 2\nORGANIZER:mailto:ann@corp.example\nATTENDEE:mailto:jo@home.example\nEND:VEVENT\nEND:VCALENDAR\n--b--\n`, 'meet');
    // 15 April is summer time in Berlin: +02:00, not the +01:00 written in the name
    expect(o.data).toMatchObject({ title: 'Budget review', start: '2026-04-15T10:00:00+02:00', end: '2026-04-15T11:00:00+02:00', location: 'Room 2' });
  });
});

describe('intent from the message\'s structure, not only its words', () => {
  const tax = [
    'intents:',
    '  money: Bills and payments — invoices, receipts, order confirmations.',
    '  travel: Trips and where I stay.',
    '  meetings: Meetings and calls.',
    '  notices: Automatic notifications from apps.',
  ].join('\n');
  const t = mailServiceForTest({}, { '_brain_config/mail/taxonomies/s.yaml': tax });
  afterAll(() => t.close());
  let n = 0;
  async function intent(headers: string, body: string): Promise<string> {
    if (!t.mail.store.findInbox('me')) t.mail.createInbox({ id: 'me', address: 'jo@home.example' });
    const mid = `s${++n}@test.example`;
    const raw = `${headers}\nTo: jo@home.example\nMessage-ID: <${mid}>\nDate: Mon, 02 Mar 2026 10:00:00 +0000\n${body}`;
    await t.mail.importItems('me', [{ raw: Buffer.from(raw), source: `${mid}.eml` }]);
    const id = (t.db.prepare('SELECT id FROM mail_messages WHERE internet_message_id = ?').get(`<${mid}>`) as { id: string }).id;
    return (await t.mail.triageMessage({ message_id: id, taxonomy_id: 's' })).intent;
  }

  it('a booking confirmation with a route between airport codes is travel, however it is worded', async () => {
    expect(await intent('From: Air <noreply@air.example>\nAuto-Submitted: auto-generated\nSubject: Booking confirmation 7WS9PD', 'Content-Type: text/plain\n\nYour booking is confirmed.\nLX 1187  Zurich (ZRH) → Frankfurt (FRA)  06:45\n')).toBe('travel');
  });

  it('a calendar invitation is a meeting even when its words are about money', async () => {
    const ics = 'BEGIN:VCALENDAR\nMETHOD:REQUEST\nBEGIN:VEVENT\nSUMMARY:Budget and invoices review\nDTSTART:20260310T140000Z\nDTEND:20260310T150000Z\nORGANIZER:mailto:ann@corp.example\nEND:VEVENT\nEND:VCALENDAR\n';
    expect(await intent('From: Ann <ann@corp.example>\nSubject: Budget and invoices review', `Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nLet us go through the invoices and payments.\n--b\nContent-Type: text/calendar; method=REQUEST\n\n${ics}--b--\n`)).toBe('meetings');
  });
});

/**
 * Specifications of the round-7 extraction mechanisms, each shown on mail invented for it: words a
 * field's schema gives it (phrases, description synonyms, its format, the document's own word),
 * real-world layouts (money tables with short summary rows, key–value tables, itinerary lines,
 * "When:/Where:" invitations, "Required:/Optional:" lines, forwards), and which name of a business
 * a field wants. Every output is checked against its schema.
 */
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { extractToSchema, forwardedSenders, meetingSubject, personName, placesInProse, withoutForwardDates } from '../../../electron/core/domains/mail/extract';
import { findAmounts, findDates, findTimes } from '../../../electron/core/domains/mail/parsers';
import { findDateTimes } from '../../../electron/core/domains/mail/datetime';
import type { MessageFacts } from '../../../electron/core/domains/mail/facts';
import { extractionMessage } from './helpers';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false }));
const msg = extractionMessage;
const sent = (dateRaw: string, kind: MessageFacts['senderKind'] = 'person'): MessageFacts => ({ headers: { 'date-raw': dateRaw }, events: [], senderKind: kind });
const REF = new Date('2026-03-10T09:00:00Z');

/** Extracts and checks the whole output against the schema, as the tool promises. */
async function extract(schema: Record<string, unknown>, over: Record<string, unknown>, facts?: MessageFacts) {
  const r = await extractToSchema(msg(over), schema, undefined, facts);
  const validate = ajv.compile(schema);
  expect(validate(r.data), JSON.stringify(validate.errors)).toBe(true);
  return r.data;
}

const bill = {
  type: 'object',
  properties: {
    supplier: { type: 'string', description: 'Business that sent the bill, as it names itself.' },
    reference: { type: 'string', description: "The bill's own number as printed." },
    issued: { type: 'string', format: 'date', description: 'When the bill was issued.' },
    pay_by: { type: 'string', format: 'date', description: 'Last day to pay, if stated.' },
    net: { type: 'number', description: 'Amount before tax.' },
    tax: { type: 'number', description: 'Tax charged.' },
    amount: { type: 'number', description: 'What must be paid (or was paid) in total.' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  },
  additionalProperties: false,
};

describe('extraction: the words a schema gives its fields', () => {
  it('a phrase of the description ("last day to pay") and the format ("date") name the labels "Due" and "Invoice date"; "Invoice #" is a number label', async () => {
    const text = 'Invoice #: QS-88\nInvoice date: 2 March 2026\nDue: 16 March 2026\n\nTotal: €120.00\n';
    const d = await extract(bill, { subject: 'Your bill', text, from: { email: 'hi@quillstone.example', name: 'Quillstone' } }, sent('Mon, 02 Mar 2026 09:00:00 +0100', 'vendor'));
    expect(d).toMatchObject({ reference: 'QS-88', issued: '2026-03-02', pay_by: '2026-03-16', amount: 120, currency: 'EUR' });
  });

  it("the document's own word in a label says whose, not which: 'Rechnungsdatum' is the issue date, 'Customer no.' no invoice id", async () => {
    const schema = { type: 'object', properties: { invoice_id: { type: 'string' }, issue_date: { type: 'string', format: 'date' }, due_date: { type: 'string', format: 'date' } } };
    const text = 'Please find invoice 40017 below.\n\nRechnungsdatum     10.03.2026\nZahlbar bis        24.03.2026\nCustomer no.       5512\n';
    const d = await extract(schema, { subject: 'Invoice 40017', text }, sent('Tue, 10 Mar 2026 08:00:00 +0100'));
    expect(d).toEqual({ invoice_id: '40017', issue_date: '2026-03-10', due_date: '2026-03-24' });
  });

  it('"name" described as what a meeting is called is its title, not a person', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string', description: 'What the meeting is called.' }, begins: { type: 'string', format: 'date-time' } } };
    const text = 'When: Thursday, March 12, 2026 10:00 AM-11:00 AM (UTC+01:00)\nWhere: Room Baltic\n\nSee you there,\nIda Holm';
    const d = await extract(schema, { subject: 'Pricing workshop', text, from: { email: 'ida@holm.example', name: 'Ida Holm' } });
    expect(d).toMatchObject({ name: 'Pricing workshop', begins: '2026-03-12T10:00:00+01:00' });
  });

  it("an enum of currency codes reads a symbol: '€950' is EUR", async () => {
    const schema = { type: 'object', properties: { total_amount: { type: 'number' }, currency_code: { type: 'string', enum: ['EUR', 'USD', 'GBP'] } } };
    const d = await extract(schema, { subject: 'Invoice', text: 'Two illustrations\nTotal: €950 (no VAT)\n' });
    expect(d).toEqual({ total_amount: 950, currency_code: 'EUR' });
  });

  it('"dep_airport"/"arr_airport" are the two sides of a trip, and their times take their own airports\' offsets', async () => {
    const schema = { type: 'object', properties: { dep_airport: { type: 'string', pattern: '^[A-Z]{3}$' }, arr_airport: { type: 'string', pattern: '^[A-Z]{3}$' }, dep_time: { type: 'string', format: 'date-time', description: 'Local time at departure, with offset.' }, arr_time: { type: 'string', format: 'date-time', description: 'Local time at arrival, with offset.' } } };
    const text = 'LH 2050\nMunich (MUC) → Porto (OPO)\nDeparture  27.03.2026  12:40\nArrival    27.03.2026  14:35\n';
    const d = await extract(schema, { subject: 'Your flight', text, created_at: '2026-03-10T11:00:00Z' }, sent('Tue, 10 Mar 2026 12:00:00 +0100', 'automated'));
    expect(d).toEqual({ dep_airport: 'MUC', arr_airport: 'OPO', dep_time: '2026-03-27T12:40:00+01:00', arr_time: '2026-03-27T14:35:00+00:00' });
  });
});

describe('extraction: layouts of real mail', () => {
  it("a money table's 'Amount' column is line items when summary rows with fewer cells follow it", async () => {
    const html = '<table><tr><th>Description</th><th>Qty</th><th>Unit price</th><th>Amount</th></tr><tr><td>Logo design</td><td>1</td><td>&pound;300.00</td><td>&pound;300.00</td></tr><tr><td>Business cards</td><td>2</td><td>&pound;22.50</td><td>&pound;45.00</td></tr>'
      + '<tr><td></td><td></td><td>Subtotal</td><td>&pound;345.00</td></tr><tr><td></td><td></td><td>VAT (20%)</td><td>&pound;69.00</td></tr><tr><td></td><td></td><td>Total due</td><td>&pound;414.00</td></tr></table>';
    const d = await extract(bill, { subject: 'Invoice', text: '', html });
    expect(d).toMatchObject({ net: 345, tax: 69, amount: 414, currency: 'GBP' });
  });

  it('a two-column table of labels ("What | …", "When | …", "Who | …") pairs each label with its own cell', async () => {
    const schema = { type: 'object', properties: { title: { type: 'string' }, start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' }, attendees: { type: 'array', items: { type: 'string', format: 'email' } } }, required: ['title', 'start', 'end'] };
    const html = '<table><tr><td>What</td><td>Release retro</td></tr><tr><td>When</td><td>2026-03-19 15:00 - 16:00 (Europe/Madrid)</td></tr><tr><td>Who</td><td>eli@brisa.example, noa@brisa.example</td></tr></table>';
    const d = await extract(schema, { subject: 'You have been invited: Release retro', text: 'What Release retro When 2026-03-19 15:00 - 16:00 (Europe/Madrid) Who eli@brisa.example, noa@brisa.example', html, from: { email: 'notify@rooms.example', name: 'Rooms' } });
    expect(d).toEqual({ title: 'Release retro', start: '2026-03-19T15:00:00+01:00', end: '2026-03-19T16:00:00+01:00', attendees: ['eli@brisa.example', 'noa@brisa.example'] });
  });

  it('"Required:" and "Optional:" lines make one list of attendees', async () => {
    const schema = { type: 'object', properties: { attendees: { type: 'array', items: { type: 'string', format: 'email' }, description: 'Addresses of the people invited.' } } };
    const text = 'Required: Ana Lopes <ana@tejo.example>; Rui Sá <rui@tejo.example>\nOptional: Eva Cruz <eva@tejo.example>\n\nThursday 19 March 2026, 10:00-10:30 (UTC+00:00)\n';
    const d = await extract(schema, { subject: 'Sprint review', text, from: { email: 'lia@tejo.example', name: 'Lia Reis' } });
    expect(new Set(d.attendees as string[])).toEqual(new Set(['ana@tejo.example', 'rui@tejo.example', 'eva@tejo.example']));
  });

  it("an invitation written as When/Where lines or a time span invites the To/Cc people; 'not counting the organiser' leaves the sender out", async () => {
    const schema = { type: 'object', properties: { attendees: { type: 'array', items: { type: 'string', format: 'email' }, description: 'Email addresses of the attendees, not counting the organiser.' } } };
    const people = { from: { email: 'bo@fenwick.example', name: 'Bo Lind' }, to: [{ email: 'me@home.example' }], cc: [{ email: 'kim@fenwick.example' }] };
    const when = await extract(schema, { subject: 'Budget', text: 'When: Friday 13 March 2026 14:00-15:00 (UTC+00:00)\nWhere: Room 2\n', ...people });
    expect(when.attendees).toEqual(['me@home.example', 'kim@fenwick.example']);
    const span = await extract(schema, { subject: 'Crit', text: "Let's do the crit on Monday 16 March, 11:00-12:00 CET, in Studio 3.", ...people });
    expect(span.attendees).toEqual(['me@home.example', 'kim@fenwick.example']);
  });

  it('a block of "Date:/From:/To:" lines with no address or subject is a trip, not a forwarded header', () => {
    const trip = 'Date: 20 March 2026\nFrom: Madrid (MAD) 14:20\nTo: Lisbon (LIS) 14:35';
    expect(withoutForwardDates(trip)).toBe(trip);
    const fwd = 'From: Ana <ana@x.example>\nDate: Fri, 6 Mar 2026\nSubject: Hi\nTo: <me@y.example>';
    expect(withoutForwardDates(fwd)).not.toContain('6 Mar');
  });

  it('a departure and an arrival that read the same on the clock are both kept (one hour west)', async () => {
    const schema = { type: 'object', properties: { departure: { type: 'string', format: 'date-time' }, arrival: { type: 'string', format: 'date-time' }, from: { type: 'string', pattern: '^[A-Z]{3}$' }, to: { type: 'string', pattern: '^[A-Z]{3}$' } } };
    const html = '<table><tr><td>Departure</td><td>Riga (RIX), 14 Apr 2026 09:30</td></tr><tr><td>Arrival</td><td>Stockholm Arlanda (ARN), 14 Apr 2026 09:30</td></tr></table>';
    const d = await extract(schema, { subject: 'Booking', text: 'Departure Riga (RIX), 14 Apr 2026 09:30 Arrival Stockholm Arlanda (ARN), 14 Apr 2026 09:30', html }, sent('Tue, 10 Mar 2026 07:00:00 +0200', 'automated'));
    expect(d).toEqual({ from: 'RIX', to: 'ARN', departure: '2026-04-14T09:30:00+03:00', arrival: '2026-04-14T09:30:00+02:00' });
  });

  it('a month inside a date ("02 APR 2026") is no airport code', async () => {
    const schema = { type: 'object', properties: { origin: { type: 'string', pattern: '^[A-Z]{3}$' }, destination: { type: 'string', pattern: '^[A-Z]{3}$' } } };
    const d = await extract(schema, { subject: 'Booking', text: 'Outbound  02 APR 2026  XY 1351  BCN 07:00 -> FCO 08:45\n' });
    expect(d).toEqual({ origin: 'BCN', destination: 'FCO' });
  });

  it('a link is the place when the field allows it ("room and/or video link") and there is no room', async () => {
    const schema = { type: 'object', properties: { location: { type: 'string', description: 'Room and/or video link.' } } };
    const d = await extract(schema, { subject: 'Sync', text: 'Thursday, March 19, 2026\n4:00 PM - 4:30 PM (GMT)\nJoin: https://teams.example/l/meetup-join/77\n' });
    expect(d.location).toBe('https://teams.example/l/meetup-join/77');
    const strict = { type: 'object', properties: { location: { type: 'string', description: 'The room, not the video link.' } } };
    expect((await extract(strict, { subject: 'Sync', text: 'Join: https://teams.example/l/meetup-join/77\n' })).location).toBeUndefined();
  });
});

describe('extraction: which name of a business', () => {
  const airline = { type: 'object', properties: { airline: { type: 'string' }, flight: { type: 'string', pattern: '^[A-Z0-9]{2}[0-9]{1,4}$' } } };

  it("a forwarded booking's airline is the forwarded message's sender, not the person forwarding", async () => {
    const text = 'Booked!\n\n---------- Forwarded message ---------\nFrom: Skyvale <bookings@skyvale.example>\nDate: Sat, 7 Mar 2026 at 10:41\nSubject: Your Skyvale booking\nTo: <pat@kin.example>\n\nSkyvale flight SV123 Cork (ORK) - Nice (NCE)\n';
    expect(forwardedSenders(text)).toEqual([{ name: 'Skyvale', email: 'bookings@skyvale.example' }]);
    const d = await extract(airline, { subject: 'Fwd: Your Skyvale booking', text, from: { email: 'pat@kin.example', name: 'Pat Kin' } }, sent('Sat, 07 Mar 2026 11:00:00 +0000'));
    expect(d).toEqual({ airline: 'Skyvale', flight: 'SV123' });
  });

  it('a display name whose initials are the domain\'s name is the business ("Nordic Jet <nj@mail.nj.example>"); a family domain is not', async () => {
    const d = await extract(airline, { subject: 'E-ticket', text: 'Flight NJ0411 on 14 April.\n', from: { email: 'tickets@mail.nj.example', name: 'Nordic Jet' } });
    expect(d.airline).toBe('Nordic Jet');
    const fam = await extract({ type: 'object', properties: { vendor: { type: 'string' } } }, { subject: 'Invoice', text: 'Invoice attached.\n', from: { email: 'sam@hale.example', name: 'Sam Hale' } }, sent('Sat, 07 Mar 2026 11:00:00 +0000'));
    expect(fam.vendor).toBeUndefined();
  });

  it("an agency's booking names the airline beside the flight designator; a route after it is no airline", async () => {
    const html = '<table><tr><td>Flight</td><td>TP1440 - Tejo Air Portugal</td></tr><tr><td>Depart</td><td>10:25 Lisbon (LIS)</td></tr></table>';
    const agency = await extract(airline, { subject: 'E-ticket', text: '', html, from: { email: 'bookings@tripnest.example', name: 'Tripnest' } }, sent('Fri, 27 Mar 2026 09:00:00 +0000', 'automated'));
    expect(agency).toEqual({ airline: 'Tejo Air Portugal', flight: 'TP1440' });
    const route = await extract(airline, { subject: 'E-ticket', text: 'Flight NJ287 - London to Oslo\n', from: { email: 'tickets@mail.nj.example', name: 'Nordic Jet' } });
    expect(route.airline).toBe('Nordic Jet');
  });

  it("a department's display name still names its business when the mail never writes it (weak evidence, but a required vendor is filled)", async () => {
    const schema = { type: 'object', properties: { vendor_name: { type: 'string' }, total: { type: 'number' } }, required: ['vendor_name', 'total'] };
    const d = await extract(schema, { subject: 'Invoice TVF-3310', text: 'Dear customer,\n\nTotal payable: £1,200.00\n', from: { email: 'accounts@tvfencing.example', name: 'Tarn Valley Fencing Accounts' } }, sent('Mon, 23 Mar 2026 09:00:00 +0000', 'vendor'));
    expect(d).toEqual({ vendor_name: 'Tarn Valley Fencing', total: 1200 });
  });

  it('a synonym phrase as a label names its own field: "Invoice date" is the issue date even for a "due_date" that has "date" in its name', async () => {
    const schema = { type: 'object', properties: { invoice_date: { type: 'string', format: 'date' }, due_date: { type: 'string', format: 'date' } } };
    const d = await extract(schema, { subject: 'Invoice', text: 'Invoice date: 23/03/2026\nPayment due within 14 days (by 06/04/2026).\n' });
    expect(d).toEqual({ invoice_date: '2026-03-23', due_date: '2026-04-06' });
  });

  it('a location has a name: a meeting id is no place, the join link is', async () => {
    const schema = { type: 'object', properties: { location: { type: 'string', description: 'Meeting room and/or video link.' } } };
    const d = await extract(schema, { subject: 'Zoom: Partner sync', text: 'Topic: Partner sync\nTime: Apr 9, 2026 03:00 PM\n\nJoin Zoom Meeting\nhttps://zoom.example/j/9123?pwd=abc\n\nMeeting ID: 912 3456 7890\n' });
    expect(d.location).toBe('https://zoom.example/j/9123?pwd=abc');
  });

  it('"X via Wave" is X; a department\'s business takes its legal form when the field asks for the legal name', async () => {
    const via = await extract({ type: 'object', properties: { vendor: { type: 'string' } } }, { subject: 'Invoice #0007', text: 'Invoice 0007 from Mesa Web Studio.\n', from: { email: 'invoice@waveapps.example', name: 'Mesa Web Studio via Wave' } }, sent('Sat, 28 Feb 2026 17:00:00 -0700', 'automated'));
    expect(via.vendor).toBe('Mesa Web Studio');
    const legal = { type: 'object', properties: { vendor_name: { type: 'string', description: 'Legal name of the supplier as printed on the invoice.' } } };
    const d = await extract(legal, { subject: 'Invoice BJ-201', text: 'Please find invoice BJ-201 from Brennan Joinery Services Ltd for the shelving.\n\nAccounts Department\nBrennan Joinery Services Ltd\n', from: { email: 'accounts@brennanjoin.example', name: 'Brennan Joinery Accounts' } }, sent('Fri, 06 Mar 2026 11:15:02 +0000', 'vendor'));
    expect(d.vendor_name).toBe('Brennan Joinery Services Ltd');
  });

  it('a person signing with their business ("Marta Silva Design") is that business, never "IBAN"', async () => {
    const schema = { type: 'object', properties: { seller: { type: 'string', description: 'The company that issued the invoice.' } } };
    const text = 'Hi!\n\nInvoice #MS-031\nTotal: €950\n\nPlease pay to the IBAN on the PDF.\n\nThanks,\nMarta\nMarta Silva Design\n';
    const d = await extract(schema, { subject: 'March invoice', text, from: { email: 'marta.silva@gmail.example', name: 'Marta Silva' } }, sent('Tue, 03 Mar 2026 10:00:00 +0000'));
    expect(d.seller).toBe('Marta Silva Design');
  });
});

describe('extraction: values as written', () => {
  it('people lists and names lose their titles; airline-style names turn round', () => {
    expect(personName('Mr Declan Moran')).toBe('Declan Moran');
    expect(personName('MORAN/DECLAN MR')).toBe('Declan Moran');
  });

  it("a meeting's subject loses Re:/Invitation:, the calendar's '@ …' tail and a trailing segment that says when", () => {
    expect(meetingSubject('Fire drill - Ranelagh, Thu 12 March', REF)).toBe('Fire drill');
    expect(meetingSubject('Invitation: Site walk - plant room @ Thu 12 Mar 2026 14:00', REF)).toBe('Site walk - plant room');
    expect(meetingSubject('Steering group - April', REF)).toBe('Steering group');
    expect(meetingSubject('Re: Kickoff: Alder x Hale', REF)).toBe('Kickoff: Alder x Hale');
  });

  it('places named in prose after "in/at (the)": a phrase ending in a place noun, never a bare "office"', () => {
    expect(placesInProse("We'll start at the main panel in the ground floor plant room. Meet in Conference Room B2. I'm in the office all day.").map((p) => p.value)).toEqual(['ground floor plant room', 'Conference Room B2']);
  });

  it('clock times: "2:00 PM-3:00 PM" is a range, "8:15a" a morning time; a trailing "+1 day" moves the arrival', () => {
    expect(findTimes('2:00 PM-3:00 PM').map((t) => t.value)).toEqual(['14:00', '15:00']);
    expect(findTimes('8:15a  Seattle; 11:40p Honolulu; costs 10 a month').map((t) => t.value)).toEqual(['08:15', '23:40']);
    const ref = new Date('2026-03-13T12:00:00Z');
    expect(findDateTimes('Fri, Apr 10, 2026  JFK 6:30 PM  LHR 6:35 AM (+1 day)', ref, '+00:00').map((d) => d.value)).toEqual(['2026-04-10T18:30:00+00:00', '2026-04-11T06:35:00+00:00']);
    expect(findDateTimes('2026-03-24 09:00 - 11:00 (Europe/Amsterdam)', ref).map((d) => d.value)).toEqual(['2026-03-24T09:00:00+01:00', '2026-03-24T11:00:00+01:00']);
    expect(findDates('Tue, 14APR  DL405', ref).map((d) => d.value)).toEqual(['2026-04-14']);
  });

  it('amounts: a symbol before the next number is that number\'s; an identifier is no amount', async () => {
    expect(findAmounts('Invoice date 06/03/2026 €1,815.00').map((a) => a.value.amount)).toEqual([1815]);
    const schema = { type: 'object', properties: { tax_amount: { type: 'number', description: 'GST.' }, total_amount: { type: 'number' } } };
    const d = await extract(schema, { subject: 'Tax invoice', text: 'Tax Invoice No: TI-55120\n\n1 x Service       A$120.00\nTotal (inc. GST)  A$132.00\nGST included       A$12.00\n' });
    expect(d).toEqual({ tax_amount: 12, total_amount: 132 });
  });

  it('a label naming an amount field that holds a date ("Due: 13 Apr 2026") gives no amount', async () => {
    const schema = { type: 'object', properties: { amount_due: { type: 'number', description: 'Total to pay.' }, due: { type: 'string', format: 'date' } } };
    const d = await extract(schema, { subject: 'Invoice', text: 'Invoice #SS-771\nDue: 13 Apr 2026\n\nCoffee beans   $211.20\nAmount due: $310.20 AUD\n' });
    expect(d).toEqual({ amount_due: 310.2, due: '2026-04-13' });
  });

  it('a tax written as an acronym ("VAT") near its amount names a tax field: "Net €1,500.00 + VAT 21% €315.00"', async () => {
    const schema = { type: 'object', properties: { tax: { type: 'number', description: 'Tax charged.' } } };
    const d = await extract(schema, { subject: 'Invoice', text: 'Invoice INV-0042, due 20/03/2026.\nNet €1,500.00 + VAT 21% €315.00.\n' });
    expect(d).toEqual({ tax: 315 });
  });
});

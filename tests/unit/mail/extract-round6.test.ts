/**
 * Specifications of the round-6 extraction mechanisms, each shown on mail invented for it: local
 * flight times, clock changes after the mail was sent, time ranges, void table rows, lists of
 * people, departments' display names, meetings named in prose, labels with a note.
 */
import { describe, expect, it } from 'vitest';
import { cancelledAt, extractToSchema, htmlTables, zoneOfOffset } from '../../../electron/core/domains/mail/extract';
import { findTimes } from '../../../electron/core/domains/mail/parsers';
import { findDateTimes } from '../../../electron/core/domains/mail/datetime';
import type { MessageFacts } from '../../../electron/core/domains/mail/facts';
import { extractionMessage } from './helpers';

const msg = extractionMessage;
const sentWith = (dateRaw: string, kind: MessageFacts['senderKind'] = 'person'): MessageFacts => ({ headers: { 'date-raw': dateRaw }, events: [], senderKind: kind });

const flight = {
  type: 'object',
  properties: {
    flight_number: { type: 'string', pattern: '^[A-Z0-9]{2}[0-9]{1,4}$' },
    from_airport: { type: 'string', pattern: '^[A-Z]{3}$', description: 'IATA code of the departure airport.' },
    to_airport: { type: 'string', pattern: '^[A-Z]{3}$', description: 'IATA code of the arrival airport.' },
    departure: { type: 'string', format: 'date-time', description: 'Departure in local time at the departure airport, with its UTC offset.' },
    arrival: { type: 'string', format: 'date-time', description: 'Arrival in local time at the arrival airport, with its UTC offset.' },
    travellers: { type: 'array', items: { type: 'string' }, description: 'Names of the people on the booking.' },
  },
};

describe('extraction: times where they happen', () => {
  it("a flight's times take the zone of the airport on their side when the field or the mail says local", async () => {
    const text = 'Dear Ms Ana Lima,\n\nYour flight LX345 on 12 Feb 2026:\n  Zurich (ZRH) 07:10 -> London Heathrow (LHR) 07:55\nAll times are local.\nBooking reference PQ7ZK2.\n';
    const r = await extractToSchema(msg({ subject: 'Your booking PQ7ZK2', text, created_at: '2026-02-01T10:00:00Z' }), flight, undefined, sentWith('Sun, 01 Feb 2026 10:00:00 +0000', 'automated'));
    expect(r.data).toMatchObject({ from_airport: 'ZRH', to_airport: 'LHR', departure: '2026-02-12T07:10:00+01:00', arrival: '2026-02-12T07:55:00+00:00' });
  });

  it("a sender's offset stands for its zone: an event after the clocks change gets that day's offset", async () => {
    expect(zoneOfOffset('-04:00', new Date('2026-10-20T12:00:00Z'))).toBe('America/New_York');
    expect(zoneOfOffset('+01:00', new Date('2026-07-01T12:00:00Z'))).toBe('Europe/London');
    expect(zoneOfOffset('+01:00', new Date('2026-01-15T12:00:00Z'))).toBe('Europe/Berlin');
    const schema = { type: 'object', properties: { start: { type: 'string', format: 'date-time', description: 'Start, local time' }, end: { type: 'string', format: 'date-time', description: 'End, local time' } } };
    const text = 'Hi Sam,\n\nThe quarterly planning call is Monday, November 9, 6:00-6:45 pm on the usual link.\n\nBea';
    const r = await extractToSchema(msg({ subject: 'Planning call', text, created_at: '2026-10-20T16:00:00Z' }), schema, undefined, sentWith('Tue, 20 Oct 2026 12:00:00 -0400'));
    expect(r.data).toMatchObject({ start: '2026-11-09T18:00:00-05:00', end: '2026-11-09T18:45:00-05:00' });
  });

  it('a range\'s start shares the end\'s am/pm when that keeps it first; a later clock time after a hyphen is no offset', () => {
    expect(findTimes('6:00-6:45 pm').map((t) => t.value)).toEqual(['18:00', '18:45']);
    expect(findTimes('11:30-1:00 pm').map((t) => t.value)).toEqual(['11:30', '13:00']);
    expect(findTimes('10:00-11:00').map((t) => t.value)).toEqual(['10:00', '11:00']);
    expect(findTimes('14:00 UTC-05:00').map((t) => t.value)).toEqual(['14:00']);
    const found = findDateTimes('When: Friday 13 March 2026 09:00-10:30 (UTC+00:00) Dublin, London', new Date('2026-03-01T00:00:00Z'), '+00:00');
    expect(found.map((d) => d.value)).toEqual(['2026-03-13T09:00:00+00:00', '2026-03-13T10:30:00+00:00']);
  });
});

describe('extraction: which row, which name', () => {
  it('a struck-through table row is void, and a table row that says cancelled speaks only for itself', () => {
    const html = '<table><tr><th>Flight</th><th>Departs</th></tr><tr><td><del>AB101</del></td><td><del>09:00</del></td></tr><tr><td>AB105</td><td>13:00</td></tr></table>';
    expect(htmlTables(html)).toEqual([[['Flight', 'Departs'], ['AB105', '13:00']]]);
    const text = 'Status  |  Flight\nCancelled  |  AB101\nReplacement  |  AB105';
    expect(cancelledAt(text, text.indexOf('AB101'))).toBe(true);
    expect(cancelledAt(text, text.indexOf('AB105'))).toBe(false);
  });

  it('a list of travellers takes the person the mail is addressed to, never a booking code', async () => {
    const text = 'Dear Mr Tomas Berg,\n\nFlight LX345 Zurich (ZRH) 07:10 -> London Heathrow (LHR) 07:55 on 12 Feb 2026.\nBooking reference PQ7ZK2 for this booking.\n';
    const r = await extractToSchema(msg({ subject: 'Booking PQ7ZK2', text }), flight);
    expect(r.data.travellers).toEqual(['Tomas Berg']);
  });

  it("a department's display name names its business without the department's words when the mail writes that name", async () => {
    const schema = { type: 'object', properties: { vendor: { type: 'string', description: 'Who is billing us, as their name appears on the invoice.' }, total: { type: 'number' } } };
    const text = 'Harbour Print & Post\nInvoice HPP-2291\n\nPrinting, 400 flyers        $96.00\nTotal due                   $96.00\n';
    const from = { email: 'billing@hpp-mail.example', name: 'Harbour Print & Post Billing' };
    const r = await extractToSchema(msg({ subject: 'Invoice HPP-2291', text, from }), schema, undefined, sentWith('Mon, 02 Mar 2026 09:00:00 -0500', 'vendor'));
    expect(r.data.vendor).toBe('Harbour Print & Post');
  });

  it('a meeting named in the text ("our Budget Review call is …") is its title, over a reply subject about something else', async () => {
    const schema = { type: 'object', properties: { title: { type: 'string', description: 'Name of the meeting as the organiser gives it.' }, start: { type: 'string', format: 'date-time' } } };
    const text = 'Hi Lea,\n\nThanks for the stall booking. Also: our Budget Review call is Tuesday, March 10, 4:00 pm on Zoom.\n\nKai';
    const r = await extractToSchema(msg({ subject: 'Re: Spring market stall confirmed', text }), schema, undefined, sentWith('Sun, 01 Mar 2026 08:00:00 +0000'));
    expect(r.data.title).toBe('Budget Review');
  });

  it('a label with a parenthetical note is still a label: "VAT (exempt - medical services)  €0.00" is a VAT of 0', async () => {
    const schema = { type: 'object', properties: { subtotal: { type: 'number', description: 'Total before VAT.' }, vat_amount: { type: 'number', minimum: 0, description: 'VAT charged in total.' }, total: { type: 'number', description: 'Amount payable including VAT.' } } };
    const text = 'Treatment (30 min), 3 sessions          €150.00\n                                        -------\nSubtotal                                €150.00\nVAT (exempt - medical services)           €0.00\nTotal due                               €150.00\n';
    const r = await extractToSchema(msg({ subject: 'Invoice', text }), schema);
    expect(r.data).toMatchObject({ subtotal: 150, vat_amount: 0, total: 150 });
  });
});

/**
 * Specifications of the round-5 mechanisms behind urgency and extraction: each is stated in a
 * test name and shown on mail invented for it, not on any fixture's wording.
 */
import { describe, expect, it } from 'vitest';
import { farDuesAreLow, highIsToday, statedSeverity, urgencyOf, withoutMeasures, type UrgencyInput } from '../../../electron/core/domains/mail/urgency';
import { nearestDeadline } from '../../../electron/core/domains/mail/deadline';
import { cancelledAt, extractToSchema, lineSide, wantsLegalName } from '../../../electron/core/domains/mail/extract';
import { findDateTimes, offsetString } from '../../../electron/core/domains/mail/datetime';
import { findTimes } from '../../../electron/core/domains/mail/parsers';
import type { MessageFacts } from '../../../electron/core/domains/mail/facts';
import type { Taxonomy } from '../../../electron/core/domains/mail/config';
import { extractionMessage } from './helpers';

const taxOf = (prose: Partial<Record<'low' | 'medium' | 'high', string>>): Taxonomy => ({ id: 't', name: 't', intents: [{ id: 'x', description: 'x', examples: [] }], precedence: [], urgency: { high: [], low: [], medium: [], prose }, sentiment: { cues: {}, prose: {} } });
const facts = (kind: MessageFacts['senderKind'], headers: Record<string, string> = {}): MessageFacts => ({ headers, events: [], senderKind: kind });
const input = (over: Partial<UrgencyInput>): UrgencyInput => ({ subject: 'Hello', body: '', full: '', date: new Date('2026-05-04T09:00:00Z'), senderWords: '', tax: taxOf({}), earlier: [], neighbours: [], ...over });
const reasons = (i: UrgencyInput) => urgencyOf(i).reasons.map((r) => r.signal);

describe('urgency: who is asked, and how loud the message means to be', () => {
  it('a measured change ("down 23%") is not breakage, "the site is down" still is', () => {
    expect(withoutMeasures('support calls are down 23% since March')).not.toMatch(/\bdown\b/);
    expect(withoutMeasures('costs went up by 5 percent')).not.toMatch(/\bup\b/);
    expect(withoutMeasures('the booking site is down again')).toMatch(/\bdown\b/);
    const praise = input({ subject: 'Thank you', body: 'Since the new planner our late deliveries are down 40%. Please pass on our thanks!', full: '', facts: facts('person') });
    expect(urgencyOf(praise).urgency).not.toBe('high');
  });

  it("an alert's own stated severity sets its level: warning is medium, critical is high", () => {
    expect(statedSeverity('labels:\n - severity = warning\n')).toBe('medium');
    expect(statedSeverity('Severity: CRITICAL')).toBe('high');
    expect(statedSeverity('severity=info')).toBe('low');
    expect(statedSeverity('no stated level here')).toBeUndefined();
    const alert = (sev: string) => input({ subject: '[FIRING:1] DiskFilling db-2', body: `Alerts Firing:\n - severity = ${sev}\n - summary = disk will be full in 9 days`, facts: facts('automated', { 'auto-submitted': 'auto-generated' }) });
    expect(reasons(alert('warning'))).toContain('stated severity');
    expect(urgencyOf(alert('warning')).urgency).toBe('medium');
    expect(urgencyOf(alert('critical')).urgency).toBe('high');
  });

  it('only copied in, an ask of someone else counts for little: the message leans low', () => {
    const body = 'Hi Priya,\n\nCould you send the signed lease to the agent?\n\nThanks, Omar';
    const to = input({ body, facts: facts('person'), addressed: 'to' });
    const cc = input({ body, facts: facts('person'), addressed: 'cc' });
    expect(reasons(cc)).toContain('only in Cc');
    expect(urgencyOf(cc).weights.medium).toBeLessThan(urgencyOf(to).weights.medium);
    expect(urgencyOf(cc).urgency).toBe('low');
  });

  it('an unsolicited approach (an opt-out line, a thread the person never wrote in) is low; a conversation is not', () => {
    const body = 'Hi Dana,\n\nWe place senior designers with studios like yours. Would you have 15 minutes this week for a call?\n\nIf you no longer wish to hear from us, reply "stop".';
    const cold = input({ body, facts: facts('person'), addressed: 'to', personWrote: false });
    expect(reasons(cold)).toContain('unsolicited approach');
    expect(urgencyOf(cold).urgency).toBe('low');
    expect(reasons({ ...cold, personWrote: true })).not.toContain('unsolicited approach');
  });

  it('a fee term with no date or sum on its line is no bill to pay', () => {
    const pitch = input({ body: 'Our fee is a share of the first salary, payable only on a successful placement. Could we talk?', full: 'Our fee is a share of the first salary, payable only on a successful placement.', facts: facts('person') });
    expect(reasons(pitch)).not.toContain('bill to pay');
    const bill = input({ body: 'Amount due: EUR 120.00, payable by 20 May 2026.', full: 'Amount due: EUR 120.00, payable by 20 May 2026.', facts: facts('vendor') });
    expect(reasons(bill)).toContain('bill to pay');
  });

  it('a bill collected by direct debit, or saying no action is needed, is no bill to pay', () => {
    const t = 'Invoice 77\nTotal due: GBP 40.00\nDue date: 12 May 2026\nWe will collect it by Direct Debit on or after the due date - no action needed.';
    expect(reasons(input({ body: t, full: t, facts: facts('automated', { 'auto-submitted': 'auto-generated' }) }))).not.toContain('bill to pay');
  });

  it("a bill due beyond the person's medium horizon is low when their low level names far-off dues", () => {
    expect(farDuesAreLow('bills due weeks from now, receipts')).toBe(true);
    expect(farDuesAreLow('newsletters and receipts')).toBe(false);
    const t = 'Invoice 2026-81\nTotal due: EUR 900.00\nDue date: 25 May 2026';
    const far = input({ body: t, full: t, facts: facts('automated', { 'auto-submitted': 'auto-generated' }), tax: taxOf({ medium: 'an invoice due within about ten days', low: 'bills due weeks from now' }) });
    expect(reasons(far).some((r) => r.startsWith('bill due beyond'))).toBe(true);
    expect(urgencyOf(far).urgency).toBe('low');
    // someone whose low level says nothing of later dues keeps the bill as an ask
    expect(reasons({ ...far, tax: taxOf({ medium: 'an invoice due within about ten days', low: 'newsletters' }) }).some((r) => r.startsWith('bill due beyond'))).toBe(false);
  });

  it('when the high level means today, a deadline tomorrow is medium', () => {
    expect(highIsToday('Needs my attention within hours; a deadline that falls today')).toBe(true);
    expect(highIsToday('anything due today or tomorrow')).toBe(false);
    const body = 'Please upload the receipts by tomorrow 12:00, otherwise I have to drop them from the report.';
    const today = input({ body, facts: facts('person'), tax: taxOf({ high: 'within hours, a deadline that falls today', medium: 'this week' }) });
    expect(urgencyOf(today).urgency).toBe('medium');
    const dayOrTwo = input({ body, facts: facts('person'), tax: taxOf({ high: 'anything due today or tomorrow', medium: 'this week' }) });
    expect(urgencyOf(dayOrTwo).urgency).toBe('high');
  });

  it('a person asking the reader to act at once is high', () => {
    const v = input({ subject: 'Please come', body: 'Your son has a fever. Could you please come and collect him as soon as possible?', facts: facts('person') });
    expect(reasons(v)).toContain('asked to act now');
    expect(urgencyOf(v).urgency).toBe('high');
  });

  it('a fix applied and being monitored turns an open incident to medium; "resolved" still ends it', () => {
    const monitoring = input({ subject: '[Status] Monitoring - exports failing', body: 'A fix was deployed at 17:20. We are monitoring. If an export still fails tomorrow, contact support.', facts: facts('automated', { 'auto-submitted': 'auto-generated' }), earlier: ['high', 'high'] });
    expect(urgencyOf(monitoring).urgency).toBe('medium');
    const resolved = { ...monitoring, subject: '[Status] Resolved - exports failing', body: 'This incident has been resolved.' };
    expect(urgencyOf(resolved).urgency).toBe('low');
  });

  it("a disruption notice is an alarm when the person's high level names disruptions, routine otherwise", () => {
    const body = 'Your flight ZX 12 on 8 May has been cancelled. We have rebooked you on ZX 14 the same day.';
    const notice = { subject: 'Flight cancelled', body, facts: facts('automated', { 'auto-submitted': 'auto-generated' }) };
    expect(urgencyOf(input({ ...notice, tax: taxOf({ high: 'a travel disruption I have to act on', medium: 'questions', low: 'receipts' }) })).urgency).toBe('high');
    expect(urgencyOf(input({ ...notice, tax: taxOf({ high: 'fire', medium: 'a flight that changed and may need rebooking', low: 'receipts' }) })).urgency).toBe('medium');
  });

  it('a deadline word right after a hyphen is part of a name ("year-end audit 2 Feb")', () => {
    const ref = new Date('2026-01-29T09:00:00Z');
    expect(nearestDeadline('Subject: year-end audit visit 2 Feb', ref)).toBeUndefined();
    expect(nearestDeadline('The offer ends 2 Feb', ref)?.days).toBe(4);
  });
});

describe('extraction: which name, which side, which segment', () => {
  const msg = extractionMessage;

  it('a name field that asks for the legal name takes the legal form; otherwise the name the sender goes by', async () => {
    const text = 'Your receipt for March.\n\nTotal: CHF 89.00\n\nSee you soon,\nYour Lindenhof Yoga team\n\nLindenhof Yoga GmbH · Seestrasse 1 · 8000 Zürich';
    const from = { email: 'noreply@lindenhof-yoga.example', name: 'Lindenhof Yoga' };
    const presents = { type: 'object', properties: { vendor: { type: 'string', description: 'The business that issued the receipt, as it presents itself.' } } };
    const legal = { type: 'object', properties: { vendor: { type: 'string', description: "Supplier's legal name as printed, including Ltd/GmbH when shown." } } };
    expect(wantsLegalName({ schema: legal.properties.vendor })).toBe(true);
    expect(wantsLegalName({ schema: presents.properties.vendor })).toBe(false);
    expect((await extractToSchema(msg({ subject: 'Your receipt', text, from }), presents)).data.vendor).toBe('Lindenhof Yoga');
    expect((await extractToSchema(msg({ subject: 'Your receipt', text, from }), legal)).data.vendor).toBe('Lindenhof Yoga GmbH');
  });

  it('am/pm belongs to a time only on its own line and not as the start of a word', () => {
    const t = findTimes('Oslo (OSL)  departure 07:00\nAmsterdam (AMS)  arrival 09:05');
    expect(t.map((x) => x.text)).toEqual(['07:00', '09:05']);
    expect(findTimes('at 7 pm')[0]?.value).toBe('19:00');
  });

  it('a value on a short line naming one side of the trip belongs to that side', async () => {
    expect(lineSide('Oslo (OSL)   departure 07:00\nAmsterdam (AMS)   arrival 09:05', 3)).toBe('origin');
    expect(lineSide('Oslo (OSL)   departure 07:00\nAmsterdam (AMS)   arrival 09:05', 32)).toBe('destination');
    const schema = { type: 'object', properties: { from_airport: { type: 'string', pattern: '^[A-Z]{3}$' }, to_airport: { type: 'string', pattern: '^[A-Z]{3}$' }, departure: { type: 'string', format: 'date-time' }, arrival: { type: 'string', format: 'date-time' } } };
    const text = 'Your boarding pass\n\nFlight   NB 410\nDate     Friday 6 March 2026\n\nOslo (OSL)        departure 07:00\nAmsterdam (AMS)   arrival   09:05\nAll times are local.';
    const r = await extractToSchema(msg({ subject: 'Your boarding pass', text, created_at: '2026-03-05T18:00:00+01:00' }), schema, undefined, { headers: { 'date-raw': 'Thu, 05 Mar 2026 18:00:00 +0100' }, events: [], senderKind: 'automated' });
    expect(r.data).toMatchObject({ from_airport: 'OSL', to_airport: 'AMS' });
    expect(Date.parse(r.data.arrival as string)).toBe(Date.parse('2026-03-06T09:05:00+01:00'));
  });

  it('when a message rebooks, values in the paragraph about the cancellation lose to the new arrangement', async () => {
    const text = 'Dear traveller,\n\nYour flight ZX 12 on Monday 23 March 2026 (departure 09:10) has been cancelled.\n\nYOUR NEW FLIGHT\nFlight      ZX 12\nDate        Tuesday 24 March 2026\nDeparture   10:40  Vienna (VIE)  local time, UTC+01:00\n\nKind regards';
    expect(cancelledAt(text, text.indexOf('09:10'))).toBe(true);
    expect(cancelledAt(text, text.indexOf('10:40'))).toBe(false);
    const schema = { type: 'object', properties: { departure: { type: 'string', format: 'date-time' } } };
    const r = await extractToSchema(msg({ subject: 'Flight cancelled - you have been rebooked', text }), schema);
    expect(Date.parse(r.data.departure as string)).toBe(Date.parse('2026-03-24T10:40:00+01:00'));
  });

  it("the organiser joins a calendar's attendees when the field says it includes the organiser", async () => {
    const ics = ['BEGIN:VCALENDAR', 'METHOD:REQUEST', 'BEGIN:VEVENT', 'SUMMARY:Planning', 'DTSTART:20260310T090000Z', 'DTEND:20260310T100000Z', 'ORGANIZER;CN=Ana:mailto:ana@x.example', 'ATTENDEE;CN=Bo:mailto:bo@x.example', 'END:VEVENT', 'END:VCALENDAR'].join('\n');
    const f: MessageFacts = { headers: {}, events: [{ summary: 'Planning', start: '2026-03-10T09:00:00+00:00', end: '2026-03-10T10:00:00+00:00', organizer: { email: 'ana@x.example' }, attendees: [{ email: 'bo@x.example' }], method: 'REQUEST' }], senderKind: 'person' };
    const withOrg = { type: 'object', properties: { attendees: { type: 'array', items: { type: 'string', format: 'email' }, description: 'Everyone invited, including the organiser.' } } };
    const invited = { type: 'object', properties: { attendees: { type: 'array', items: { type: 'string', format: 'email' }, description: 'The people invited.' } } };
    expect(new Set((await extractToSchema(msg({ subject: 'Invitation: Planning', text: ics }), withOrg, undefined, f)).data.attendees as string[])).toEqual(new Set(['ana@x.example', 'bo@x.example']));
    expect((await extractToSchema(msg({ subject: 'Invitation: Planning', text: ics }), invited, undefined, f)).data.attendees).toEqual(['bo@x.example']);
  });

  it('UTC is written "+00:00" like every other offset', () => {
    expect(offsetString(0)).toBe('+00:00');
    expect(offsetString(-300)).toBe('-05:00');
    expect(findDateTimes('Starts 12 March 2026 14:00 GMT', new Date('2026-03-01T00:00:00Z'))[0]?.value).toBe('2026-03-12T14:00:00+00:00');
  });
});

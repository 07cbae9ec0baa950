/**
 * Flight times are local to their airports: a departure or arrival written without a zone is read
 * in the zone of the airport on that side of the trip, whatever offset the mail was sent with.
 */
import { describe, expect, it } from 'vitest';
import { airportZone } from '../../../electron/core/domains/mail/airports';
import { extractToSchema } from '../../../electron/core/domains/mail/extract';
import { extractionMessage } from './helpers';


const msg = (over: Record<string, unknown>) => extractionMessage({ from: { email: 'trips@air.example', name: 'Air' }, ...over });
const schema = {
  type: 'object',
  properties: {
    flight_number: { type: 'string', pattern: '^[A-Z0-9]{2}\\s?\\d{1,4}$' },
    origin: { type: 'string', pattern: '^[A-Z]{3}$', description: 'IATA code of the departure airport' },
    destination: { type: 'string', pattern: '^[A-Z]{3}$', description: 'IATA code of the arrival airport' },
    departure_local: { type: 'string', format: 'date-time', description: 'Local departure time with UTC offset' },
    arrival_local: { type: 'string', format: 'date-time', description: 'Local arrival time with UTC offset' },
  },
  required: ['flight_number', 'origin', 'destination'],
  additionalProperties: false,
};

describe('airport time zones', () => {
  it('knows the zone of an airport by its IATA code, and nothing of other words', () => {
    expect(airportZone('LHR')).toBe('Europe/London');
    expect(airportZone('JFK')).toBe('America/New_York');
    expect(airportZone('OPO')).toBe('Europe/Lisbon');
    expect(airportZone('lhr')).toBeUndefined();
    expect(airportZone('LONDON')).toBeUndefined();
  });

  it('a departure and an arrival written without a zone take their own airports\' offsets, across a DST change', async () => {
    const text = 'Booking confirmed\n\nFlight LX 14\nZurich (ZRH) → New York (JFK)\nDeparture: 29 March 2026 10:05\nArrival: 29 March 2026 13:10\n\nAll times are local.';
    const facts = { headers: { 'date-raw': 'Sun, 01 Mar 2026 09:00:00 +0100' }, events: [], senderKind: 'automated' as const };
    const r = await extractToSchema(msg({ subject: 'Your flight to New York', text }), schema, undefined, facts);
    expect(r.data).toMatchObject({ origin: 'ZRH', destination: 'JFK' });
    // Zurich is on summer time from 29 March 02:00; New York since 8 March.
    expect(r.data.departure_local).toBe('2026-03-29T10:05:00+02:00');
    expect(r.data.arrival_local).toBe('2026-03-29T13:10:00-04:00');
  });

  it('a time with its zone written next to it keeps that zone', async () => {
    const text = 'Flight LX 14\nZurich (ZRH) → New York (JFK)\nDeparture: 29 March 2026 10:05 UTC+01:00\nArrival: 29 March 2026 13:10\n';
    const facts = { headers: { 'date-raw': 'Sun, 01 Mar 2026 09:00:00 +0100' }, events: [], senderKind: 'automated' as const };
    const r = await extractToSchema(msg({ subject: 'Your flight', text }), schema, undefined, facts);
    expect(r.data.departure_local).toBe('2026-03-29T10:05:00+01:00');
    expect(r.data.arrival_local).toBe('2026-03-29T13:10:00-04:00');
  });
});

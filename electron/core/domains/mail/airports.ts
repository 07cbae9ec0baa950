/**
 * Airports' time zones: an airline writes departure and arrival times in the local time of each
 * airport ("LHR 07:10 → OPO 09:45"), so a time written without a zone is read in its airport's zone.
 * The table (IATA code → IANA zone) is built by scripts/build-airport-zones.mjs from OpenFlights data.
 */
import table from './airport-zones.json' with { type: 'json' };

let byCode: Map<string, string> | undefined;

/** The IANA time zone of an airport's IATA code ("LHR" → "Europe/London"), or undefined. */
export function airportZone(code: string): string | undefined {
  if (!/^[A-Z]{3}$/.test(code)) return undefined;
  if (!byCode) {
    byCode = new Map();
    for (const [zone, codes] of Object.entries(table.zones as Record<string, string>)) for (const c of codes.split(' ')) byCode.set(c, zone);
  }
  return byCode.get(code);
}

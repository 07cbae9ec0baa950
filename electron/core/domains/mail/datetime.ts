/** Date-times with offsets: zone abbreviations, IANA zone names, "+02:00", ICS TZID values. */
import { findDates, findTimes, type Found } from './parsers';

/** Common zone abbreviations → minutes east of UTC. Ambiguous ones (IST, CST) take the most common mail meaning. */
export const ZONE_ABBR: Record<string, number> = {
  UTC: 0, GMT: 0, Z: 0, WET: 0, WEST: 60, BST: 60, IST: 60, CET: 60, CEST: 120, MET: 60, MEST: 120, EET: 120, EEST: 180, MSK: 180,
  EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420, AKST: -540, AKDT: -480, HST: -600,
  JST: 540, KST: 540, HKT: 480, SGT: 480, AWST: 480, ACST: 570, AEST: 600, AEDT: 660, NZST: 720, NZDT: 780, GST: 240, TRT: 180, SAST: 120,
};

/** Zone names people and mail clients write out, and Windows zone ids (Outlook TZIDs) → IANA. */
export const ZONE_NAMES: Record<string, string> = {
  'central european summer time': '+02:00', 'central european standard time': 'Europe/Berlin', 'central european time': 'Europe/Berlin', 'british summer time': '+01:00',
  'western european summer time': '+01:00', 'western european time': 'Europe/Lisbon', 'eastern european summer time': '+03:00', 'eastern european time': 'Europe/Athens',
  'greenwich mean time': '+00:00', 'coordinated universal time': '+00:00', 'irish standard time': '+01:00',
  'eastern time': 'America/New_York', 'eastern standard time': 'America/New_York', 'eastern daylight time': '-04:00',
  'central time': 'America/Chicago', 'central standard time': 'America/Chicago', 'central daylight time': '-05:00',
  'mountain time': 'America/Denver', 'mountain standard time': 'America/Denver', 'mountain daylight time': '-06:00',
  'pacific time': 'America/Los_Angeles', 'pacific standard time': 'America/Los_Angeles', 'pacific daylight time': '-07:00',
  'w. europe standard time': 'Europe/Berlin', 'central europe standard time': 'Europe/Budapest', 'romance standard time': 'Europe/Paris', 'gmt standard time': 'Europe/London',
  'e. europe standard time': 'Europe/Chisinau', 'fle standard time': 'Europe/Kiev', 'gtb standard time': 'Europe/Bucharest', 'greenwich standard time': 'Atlantic/Reykjavik',
  'tokyo standard time': 'Asia/Tokyo', 'india standard time': 'Asia/Kolkata', 'china standard time': 'Asia/Shanghai', 'singapore standard time': 'Asia/Singapore',
  'aus eastern standard time': 'Australia/Sydney', 'new zealand standard time': 'Pacific/Auckland', 'utc': '+00:00', 'us eastern standard time': 'America/Indianapolis',
};
const ZONE_NAME_ALT = Object.keys(ZONE_NAMES)
  .filter((k) => k.includes(' '))
  .sort((a, b) => b.length - a.length)
  .map((k) => k.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`).replace(/[.]/g, '\\.').replace(/ /g, '\\s+'))
  .join('|');

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');
/** Minutes east of UTC as "+02:00"; UTC too is written "+00:00", like every other offset (never "Z"). */
export const offsetString = (min: number) => (`${min < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(min) / 60))}:${pad(Math.abs(min) % 60)}`);

/** Minutes east of UTC of an IANA zone at a given instant, or undefined for an unknown zone. */
export function zoneOffsetAt(tz: string, utcMs: number): number | undefined {
  try {
    const f = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' });
    const name = f.formatToParts(new Date(utcMs)).find((p) => p.type === 'timeZoneName')?.value ?? '';
    const m = /GMT(?:([+-])(\d{1,2})(?::(\d{2}))?)?/.exec(name);
    if (!m) return undefined;
    return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
  } catch {
    return undefined;
  }
}

/** The offset a local wall time has in a zone (IANA name, abbreviation or "+02:00"). */
export function offsetFor(zone: string, localIso: string): number | undefined {
  let z = zone.trim().replace(/^\(|\)$/g, '').trim();
  const named = ZONE_NAMES[z.toLowerCase().replace(/\s+/g, ' ')];
  if (named) z = named;
  const num = /^(?:UTC|GMT)?\s*([+-])(\d{1,2}):?(\d{2})?$/i.exec(z);
  if (num) return (num[1] === '-' ? -1 : 1) * (Number(num[2]) * 60 + Number(num[3] ?? 0));
  const abbr = ZONE_ABBR[z.toUpperCase()];
  if (abbr !== undefined) return abbr;
  const wall = Date.parse(localIso + 'Z');
  if (Number.isNaN(wall)) return undefined;
  // Two passes: the offset at (wall - offset) settles DST edges.
  let off = zoneOffsetAt(z, wall);
  if (off === undefined) return undefined;
  off = zoneOffsetAt(z, wall - off * 60_000) ?? off;
  return off;
}

/** "2025-06-12T14:30" + zone → "2025-06-12T14:30:00+02:00" (undefined if the zone is unknown). */
export function withZone(localIso: string, zone: string): string | undefined {
  const off = offsetFor(zone, localIso.length === 16 ? localIso + ':00' : localIso);
  if (off === undefined) return undefined;
  const base = localIso.length === 16 ? localIso + ':00' : localIso.slice(0, 19);
  return base + offsetString(off);
}

const ZONE_RE = String.raw`(?:\(?\s*(?:${ZONE_NAME_ALT}|(?:UTC|GMT)\s*[+-]\d{1,2}(?::?\d{2})?|[+-]\d{2}:?\d{2}|[A-Z][a-z]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?|[A-Z]{2,5}(?![A-Za-z/]))\s*\)?)`;

/** The day after an ISO date ("2026-04-10" → "2026-04-11"). */
const addDay = (ymd: string) => new Date(Date.parse(`${ymd}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * Date-times in text: a date and a clock time close together (either order), with the zone that
 * follows the time (abbreviation, offset, IANA name) — or `defaultZone` — as ISO 8601 with offset.
 */
export function findDateTimes(raw: string, ref: Date, defaultZone?: string): Array<Found<string> & { zoned: boolean }> {
  // "UTC−05:00" is written with a minus sign as often as with a hyphen (same length: positions hold)
  const text = raw.replace(/\u2212/g, '-');
  const out: Array<Found<string> & { zoned: boolean }> = [];
  // ISO forms first: 2025-06-12T14:30:00+02:00 / 2025-06-12 14:30 CEST
  const isoRe = new RegExp(String.raw`\b(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z\b|[+-]\d{2}:?\d{2}|${ZONE_RE})?`, 'g');
  let m: RegExpExecArray | null;
  const used: Array<[number, number]> = [];
  while ((m = isoRe.exec(text))) {
    const local = `${m[1]}T${m[2]}:${m[3] ?? '00'}`;
    let zone = m[4]?.trim();
    if (!zone) {
      // "2027-02-09 15:00 – 16:00 (Europe/Oslo)": the zone after a range applies to both ends
      const tail = text.slice(m.index + m[0].length, m.index + m[0].length + 60);
      const r = new RegExp(String.raw`^\s*(?:[-–—]|to|until)\s*(?:\d{4}-\d{2}-\d{2}[T ])?\d{1,2}:\d{2}(?::\d{2})?\s*(${ZONE_RE})`).exec(tail);
      const rz = r?.[1]?.trim().replace(/^\(|\)$/g, '').trim();
      if (rz !== undefined && offsetFor(rz, `${m[1]}T${m[2]}:00`) !== undefined) zone = rz;
    }
    const v = zone ? withZone(local, zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')) : defaultZone ? withZone(local, defaultZone) : undefined;
    if (v) {
      out.push({ value: v, index: m.index, text: m[0], zoned: !!zone });
      used.push([m.index, m.index + m[0].length]);
    }
  }
  // (an ISO date-time's date also dates the times after it: "2026-03-24 09:00 - 11:00 (Europe/Amsterdam)")
  const dates = findDates(text, ref);
  const times = findTimes(text).filter((t) => !used.some(([a, b]) => t.index >= a && t.index < b));
  let prev: { date: Found<string>; end: number } | undefined;
  for (const t of times) {
    // nearest date within 60 chars before, or 40 after — or, for a block of lines with no blank
    // line between ("Date  17 March" / "Departure 07:40" / "Arrival 08:25"), the block's date above
    let best: Found<string> | undefined;
    let bestD = Infinity;
    for (const d of dates) {
      const dist = t.index >= d.index ? t.index - (d.index + d.text.length) : d.index - (t.index + t.text.length) + 20;
      const sameBlock = t.index >= d.index && dist <= 300 && !/\n[ \t]*\n/.test(text.slice(d.index, t.index));
      if (dist >= -1 && (dist <= 60 || sameBlock) && dist < bestD) {
        best = d;
        bestD = dist;
      }
    }
    // A time on the line after one that had a date shares it ("Zurich 12:05 CEST" / "Lisbon 14:05 WEST").
    if (!best && prev && (text.slice(prev.end, t.index).match(/\n/g) ?? []).length === 1 && !dates.some((d) => d.index > prev!.end && d.index < t.index)) best = prev.date;
    if (!best) continue;
    prev = { date: best, end: t.index + t.text.length };
    const after = text.slice(t.index + t.text.length, t.index + t.text.length + 40);
    const zm = new RegExp(String.raw`^\s*(?:hrs?\b|h\b|o'clock)?\s*(?:local time\s*)?(${ZONE_RE})`).exec(after);
    let zone = zm?.[1]?.trim().replace(/^\(|\)$/g, '').trim();
    // "08:00-09:30 (UTC+00:00)": a later clock time after a hyphen ends a range; it is no offset
    const asEnd = zone ? /^-(\d{2}):(\d{2})$/.exec(zone) : null;
    if (asEnd && `${asEnd[1]}:${asEnd[2]}` > t.value && Number(asEnd[1]) < 24) zone = undefined;
    if (!zone) {
      const r = new RegExp(String.raw`^\s*(?:[-–—]|to|until)\s*\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*(${ZONE_RE})`, 'i').exec(after);
      if (r) zone = r[1]?.trim().replace(/^\(|\)$/g, '').trim();
    }
    if (zone && offsetFor(zone, `${best.value}T${t.value}:00`) === undefined) zone = undefined;
    if (!zone) {
      // "08:25  London Heathrow (LHR), T2   local time, UTC+00:00": an explicit offset later on the
      // time's own line, before any other time, is that time's zone.
      const line = (text.slice(t.index + t.text.length).split('\n')[0] ?? '').slice(0, 120);
      const next = line.search(/(?<![+\-\d:])\b\d{1,2}[:.]\d{2}\b/);
      const scope = next >= 0 ? line.slice(0, next) : line;
      const lz = /(?:UTC|GMT)\s*[+-]\d{1,2}(?::?\d{2})?(?!\d)/.exec(scope)?.[0];
      if (lz && offsetFor(lz, `${best.value}T${t.value}:00`) !== undefined) zone = lz;
    }
    // "06:35 (+1 day)", "10:55+1", "(next day)": an arrival the day after its date.
    const nextDay = /^\s*(?:[A-Z]{2,5}\s*)?(?:\(\s*\+\s*1(?:\s*days?)?\s*\)|\+\s*1(?:\s*days?)?(?![\d:])|\(?next day\)?)/i.test(text.slice(t.index + t.text.length + (zm && zone ? zm[0].length : 0), t.index + t.text.length + 40));
    const local = `${nextDay ? addDay(best.value) : best.value}T${t.value}`;
    const v = zone ? withZone(local, zone) : defaultZone ? withZone(local, defaultZone) : undefined;
    if (v) out.push({ value: v, index: t.index, text: text.slice(Math.min(best.index, t.index), Math.max(best.index + best.text.length, t.index + t.text.length + (zm && zone ? zm[0].length : 0))), zoned: !!zone });
  }
  return out.sort((a, b) => a.index - b.index);
}

/** A small RFC 5545 reader for the VEVENTs of a `text/calendar` part (invitations). */
import { offsetString, withZone } from './datetime';

export interface CalEvent {
  summary?: string;
  description?: string;
  location?: string;
  url?: string;
  /** ISO 8601 with offset (or a plain date for all-day events). */
  start?: string;
  end?: string;
  organizer?: { email: string; name?: string };
  attendees: Array<{ email: string; name?: string }>;
  uid?: string;
  method?: string;
}

interface Prop {
  name: string;
  params: Record<string, string>;
  value: string;
}

function props(text: string): Prop[] {
  const unfolded = text.replace(/\r\n/g, '\n').replace(/\n[ \t]/g, '');
  const out: Prop[] = [];
  for (const line of unfolded.split('\n')) {
    // NAME;PARAM=x;PARAM="y:z":value — the first ':' outside quotes ends the parameters.
    let q = false;
    let i = 0;
    for (; i < line.length; i++) {
      if (line[i] === '"') q = !q;
      else if (line[i] === ':' && !q) break;
    }
    if (i >= line.length) continue;
    const [name = '', ...ps] = line.slice(0, i).split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    const params: Record<string, string> = {};
    for (const p of ps) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).toUpperCase()] = p.slice(eq + 1).replace(/^"|"$/g, '');
    }
    out.push({ name: name.toUpperCase(), params, value: line.slice(i + 1) });
  }
  return out;
}

const unescape = (v: string) => v.replace(/\\n/gi, '\n').replace(/\\([,;\\])/g, '$1').trim();

/** DTSTART value → ISO 8601 with offset: "…Z" is UTC, TZID resolves through Intl, a bare date stays a date. */
export function icsDate(p: Prop, zones: Map<string, { standard?: number; daylight?: number }> = new Map()): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z)?)?$/.exec(p.value.trim());
  if (!m) return undefined;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (!m[4]) return date;
  const local = `${date}T${m[4]}:${m[5]}:${m[6] ?? '00'}`;
  if (m[7]) return local + offsetString(0);
  const tz = p.params.TZID;
  if (tz) {
    const known = withZone(local, tz.replace(/^\/+/, '')) ?? displayZone(local, tz);
    if (known) return known;
    // A custom TZID: the calendar's own VTIMEZONE offsets (daylight between April and October, north).
    const z = zones.get(tz);
    const month = Number(m[2]);
    const off = z ? (month >= 4 && month <= 10 ? (z.daylight ?? z.standard) : (z.standard ?? z.daylight)) : undefined;
    if (off !== undefined) return local + offsetString(off);
  }
  return undefined; // floating time: no zone, so no instant
}

let zoneIds: string[] | undefined;

/**
 * Outlook's display-name TZIDs, "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna":
 * the first city that names an IANA zone gives the offset with its daylight rules; failing that,
 * the "(UTC±hh:mm)" written in the name.
 */
function displayZone(local: string, tz: string): string | undefined {
  const m = /^\(?(?:UTC|GMT)\s*(?:([+-])(\d{1,2}):?(\d{2})?)?\)?\s*(.*)$/i.exec(tz.trim());
  if (!m) return undefined;
  try {
    zoneIds ??= (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zoneIds = [];
  }
  for (const city of (m[4] ?? '').split(/\s*,\s*|\s+-\s+/).map((c) => c.trim().replace(/\s+/g, '_')).filter(Boolean)) {
    const id = zoneIds.find((z) => z.toLowerCase().endsWith(`/${city.toLowerCase()}`));
    const v = id ? withZone(local, id) : undefined;
    if (v) return v;
  }
  if (m[1] === undefined && /^\(?(UTC|GMT)\)?/i.test(tz.trim())) return local + offsetString(0);
  return m[1] ? local + offsetString((m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0))) : undefined;
}

const mailto = (v: string) => v.replace(/^mailto:/i, '').trim();

/** Every VEVENT in the calendar text. */
export function parseIcs(text: string): CalEvent[] {
  const events: CalEvent[] = [];
  let cur: CalEvent | undefined;
  let method: string | undefined;
  const zones = new Map<string, { standard?: number; daylight?: number }>();
  let tzid: string | undefined;
  let part: 'standard' | 'daylight' | undefined;
  const all = props(text);
  for (const p of all) {
    if (p.name === 'TZID' && !p.params.VALUE) tzid = unescape(p.value);
    if (p.name === 'BEGIN' && /^(STANDARD|DAYLIGHT)$/i.test(p.value)) part = p.value.toLowerCase() as 'standard' | 'daylight';
    if (p.name === 'TZOFFSETTO' && tzid && part) {
      const o = /^([+-])(\d{2})(\d{2})/.exec(p.value.trim());
      if (o) zones.set(tzid, { ...zones.get(tzid), [part]: (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3])) });
    }
    if (p.name === 'END' && /^VTIMEZONE$/i.test(p.value)) tzid = undefined;
  }
  for (const p of all) {
    if (p.name === 'METHOD') method = p.value.trim();
    if (p.name === 'BEGIN' && p.value.toUpperCase() === 'VEVENT') cur = { attendees: [], method };
    else if (p.name === 'END' && p.value.toUpperCase() === 'VEVENT') {
      if (cur) events.push(cur);
      cur = undefined;
    } else if (cur) {
      switch (p.name) {
        case 'SUMMARY':
          cur.summary = unescape(p.value);
          break;
        case 'DESCRIPTION':
          cur.description = unescape(p.value);
          break;
        case 'LOCATION':
          cur.location = unescape(p.value);
          break;
        case 'URL':
          cur.url = p.value.trim();
          break;
        case 'UID':
          cur.uid = p.value.trim();
          break;
        case 'DTSTART':
          cur.start = icsDate(p, zones);
          break;
        case 'DTEND':
          cur.end = icsDate(p, zones);
          break;
        case 'ORGANIZER':
          cur.organizer = { email: mailto(p.value), ...(p.params.CN ? { name: p.params.CN } : {}) };
          break;
        case 'ATTENDEE':
          cur.attendees.push({ email: mailto(p.value), ...(p.params.CN ? { name: p.params.CN } : {}) });
          break;
        default:
          if (/^X-.*(CONFERENCE|MEETING|ONLINE).*URL/.test(p.name) || p.name === 'CONFERENCE') cur.url ??= p.value.trim();
      }
    }
  }
  return events;
}

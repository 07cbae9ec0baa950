/** What a message's raw source says beyond the stored text: headers, calendar parts, kind of sender. */
import { simpleParser } from 'mailparser';
import { parseIcs, type CalEvent } from './ical';
import type { MessageRow } from './store';

export type SenderKind = 'automated' | 'person' | 'vendor';

export interface MessageFacts {
  headers: Record<string, string>;
  events: CalEvent[];
  senderKind: SenderKind;
  /** Why the sender counts as automated (header or address), for explanations. */
  automatedBy?: string;
}

const AUTO_LOCAL = /^(no[-_.]?reply|do[-_.]?not[-_.]?reply|donotreply|notifications?|notify|alerts?|mailer-daemon|postmaster|bounces?|automated|system|robot|bot|news(letter)?|updates|digest|info|marketing|billing-noreply|reminders?)([-_.+].*)?$/i;
const VENDOR_LOCAL = /^(billing|invoices?|accounts?|sales|orders?|bookings?|reservations?|support|service|help|hello|team|contact|office|admin|receipts?|payments?|shop|store)([-_.+].*)?$/i;

export function senderKindOf(from: string | undefined, headers: Record<string, string>): { kind: SenderKind; by?: string } {
  const auto = (headers['auto-submitted'] ?? '').toLowerCase();
  if (auto && auto !== 'no') return { kind: 'automated', by: `Auto-Submitted: ${auto}` };
  const prec = (headers['precedence'] ?? '').toLowerCase();
  if (/bulk|list|junk|auto_reply/.test(prec)) return { kind: 'automated', by: `Precedence: ${prec}` };
  if (headers['list-unsubscribe'] || headers['list-id']) return { kind: 'automated', by: headers['list-id'] ? 'List-Id' : 'List-Unsubscribe' };
  if (headers['x-auto-response-suppress'] || headers['x-autoreply'] || headers['x-autorespond']) return { kind: 'automated', by: 'auto-response header' };
  const local = (from ?? '').split('@')[0] ?? '';
  if (AUTO_LOCAL.test(local)) return { kind: 'automated', by: `address ${from}` };
  if (VENDOR_LOCAL.test(local)) return { kind: 'vendor', by: `address ${from}` };
  return { kind: 'person' };
}

function headerText(v: unknown): string {
  if (v == null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(headerText).join(', ');
  if (typeof v === 'object') {
    const o = v as { text?: string; value?: unknown; params?: Record<string, string> };
    if (typeof o.text === 'string') return o.text;
    if (typeof o.value === 'string') return o.value;
    if (o.value !== undefined) return headerText(o.value);
  }
  return String(v);
}

/** Parses the raw source once (mailparser) for headers and `text/calendar` parts. */
export async function messageFacts(msg: MessageRow, raw: Buffer | undefined): Promise<MessageFacts> {
  const headers: Record<string, string> = {};
  const events: CalEvent[] = [];
  if (raw && raw.length) {
    try {
      const p = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipHtmlToText: true });
      for (const [k, v] of p.headers) headers[k.toLowerCase()] = headerText(v);
      const head = raw.subarray(0, Math.min(raw.length, 64 * 1024)).toString('latin1').split(/\r?\n\r?\n/)[0] ?? '';
      const date = /^Date:[ \t]*(.+(?:\r?\n[ \t].+)*)/im.exec(head)?.[1];
      if (date) headers['date-raw'] = date.replace(/\s+/g, ' ').trim();
      // mailparser folds List-* headers into one structured `list` entry: keep the raw ones too,
      // so a newsletter with only List-Unsubscribe still reads as bulk.
      for (const name of ['list-unsubscribe', 'list-id', 'list-post']) {
        const v = new RegExp(`^${name}:[ \\t]*(.+(?:\\r?\\n[ \\t].+)*)`, 'im').exec(head)?.[1];
        if (v && !headers[name]) headers[name] = v.replace(/\s+/g, ' ').trim();
      }
      for (const a of p.attachments) {
        if (/^text\/calendar|^application\/ics/i.test(a.contentType) || /\.ics$/i.test(a.filename ?? '')) events.push(...parseIcs(a.content.toString('utf8')));
      }
    } catch {
      // An unparsable source leaves only what the row has.
    }
  }
  // Calendar text that ended up in the body (some clients inline it).
  if (!events.length && /BEGIN:VEVENT/.test(msg.text)) events.push(...parseIcs(msg.text.slice(msg.text.indexOf('BEGIN:VCALENDAR') >= 0 ? msg.text.indexOf('BEGIN:VCALENDAR') : msg.text.indexOf('BEGIN:VEVENT'))));
  const sk = senderKindOf(msg.from?.email, headers);
  return { headers, events, senderKind: sk.kind, ...(sk.by && sk.kind === 'automated' ? { automatedBy: sk.by } : {}) };
}

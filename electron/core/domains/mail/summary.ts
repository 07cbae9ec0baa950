import type { MessageRow, ThreadRow } from './store';
import { latestText } from './text';

/** Hosts and paths of open/click trackers that mail bodies carry (pixels, redirectors). */
const TRACKER_HOST = /(^|\.)(list-manage\.com|mailchimp\.com|ct\.sendgrid\.net|sendgrid\.net|mandrillapp\.com|mailgun\.org|mailtrack\.io|hubspotemail\.net|hs-analytics\.net|hubspotlinks\.com|track\.hubspot\.com|doubleclick\.net|google-analytics\.com|exct\.net|awstrack\.me|mktoresp\.com|mkt\d+\.com|sparkpostmail\.com|pstmrk\.it|mcsv\.net|rs6\.net|constantcontact\.com|sendibt\d*\.com|mailjet\.com|klclick\d*\.com|convertkit-mail\d*\.com|trk\.[^./]+\.[a-z]+)$/i;
const TRACKER_PATH = /\/(open|opened|track|tracking|trk|pixel|beacon|wf\/open|e\/o|o\/|ss\/c|ls\/click|click|unsubscribe)(\.php|\.gif|\.png|\/|\?|$)/i;
const PIXEL = /[?&](w|width|h|height)=1(&|$)|1x1|spacer\.gif|blank\.gif|pixel\.(gif|png)/i;

/** Whether a URL is tracking noise in a summary: a known tracker, a 1×1 image, or a long query string. */
export function isTrackingUrl(raw: string): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return true; // a broken URL is noise too
  }
  if (TRACKER_HOST.test(u.hostname)) return true;
  if (PIXEL.test(raw)) return true;
  if (TRACKER_PATH.test(u.pathname) && u.search.length > 0) return true;
  return u.search.length > 40;
}

/**
 * Summary text without tracking URLs: tracker links, pixels and long query-string URLs go
 * (with the brackets or parentheses html-to-text put around them); short plain links stay.
 */
export function stripTrackingUrls(text: string): string {
  return text
    .replace(/[[(<]?\bhttps?:\/\/[^\s<>()[\]"']+[\])>]?/gi, (m) => {
      const url = m.replace(/^[[(<]/, '').replace(/[\])>]$/, '');
      return isTrackingUrl(url.replace(/[.,;:!?]+$/, '')) ? '' : m;
    })
    .replace(/\[\s*(image|img)?:?\s*\]/gi, '')
    .replace(/\(\s*\)|\[\s*\]|<\s*>/g, '')
    .replace(/[ \t]{2,}/g, ' ');
}

const who = (m: MessageRow) => m.from?.name ?? m.from?.email ?? 'unknown sender';

function sentences(text: string): string[] {
  return stripTrackingUrls(text)
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"'(\p{Lu}])/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 3 && !/^(hi|hello|dear|hey)\b/i.test(s) && !/^(best|kind|warm)?\s*regards/i.test(s) && !/^thanks?,?$/i.test(s));
}

/**
 * An extractive summary, deterministic and local: who wrote, over what span, the gist of the
 * first and latest messages and any open questions in the latest inbound one.
 */
export function summarizeThread(thread: ThreadRow, messages: MessageRow[]): string {
  const first = messages.at(0);
  const last = messages.at(-1);
  if (!first || !last) return `Empty thread "${thread.subject}".`;
  const people = [...new Set(messages.map(who))];
  const day = (iso: string) => iso.slice(0, 10);
  const parts: string[] = [];
  parts.push(
    `${messages.length} message${messages.length > 1 ? 's' : ''} about "${thread.subject || '(no subject)'}" from ${people.slice(0, 4).join(', ')}${people.length > 4 ? ` and ${people.length - 4} more` : ''}` +
      (day(first.created_at) === day(last.created_at) ? ` on ${day(first.created_at)}.` : ` between ${day(first.created_at)} and ${day(last.created_at)}.`),
  );
  const gist = sentences(latestText(first.text)).slice(0, 2).join(' ');
  if (gist) parts.push(`${who(first)} wrote: ${gist.slice(0, 300)}`);
  if (last !== first) {
    const lg = sentences(latestText(last.text)).slice(0, 2).join(' ');
    if (lg) parts.push(`Latest, ${who(last)}: ${lg.slice(0, 300)}`);
  }
  const lastIn = [...messages].reverse().find((m) => m.direction === 'inbound');
  const questions = lastIn ? sentences(latestText(lastIn.text)).filter((s) => s.endsWith('?')).slice(0, 3) : [];
  if (questions.length) parts.push(`Open question${questions.length > 1 ? 's' : ''}: ${questions.join(' ')}`);
  if (last.direction === 'outbound') parts.push('The last message is our reply.');
  return parts.join('\n');
}

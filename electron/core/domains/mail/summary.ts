import type { MessageRow, ThreadRow } from './store';
import { latestText } from './text';

const who = (m: MessageRow) => m.from?.name ?? m.from?.email ?? 'unknown sender';

function sentences(text: string): string[] {
  return text
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
  if (messages.length === 0) return `Empty thread "${thread.subject}".`;
  const people = [...new Set(messages.map(who))];
  const first = messages[0];
  const last = messages[messages.length - 1];
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

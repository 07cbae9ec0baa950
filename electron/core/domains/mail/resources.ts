import type { JsonObject, ResourceTemplateDef } from '../../kernel/types';
import { MailroomError } from '../../kernel/errors';
import type { MailService } from './service';
import type { ThreadStatus } from './store';

const seg = (u: URL) => u.pathname.split('/').filter(Boolean).map(decodeURIComponent);

/**
 * The `read` of a template shaped `email://<host>/<id>` (or `email://<host>/<id>/<tail>`): undefined
 * for a URI of any other shape, else what `load` makes of the id, checked against `contract`.
 */
function readById(mail: MailService, host: string, tail: string | undefined, contract: string, load: (id: string, u: URL) => JsonObject) {
  return async (u: URL): Promise<JsonObject | undefined> => {
    if (u.protocol !== 'email:' || u.host !== host) return undefined;
    const s = seg(u);
    const [id] = s;
    if (id === undefined || s.length !== (tail === undefined ? 1 : 2) || s[1] !== tail) return undefined;
    const out = load(id, u);
    mail.contracts.check(contract, out);
    return out;
  };
}

/**
 * The seed's resource URIs. `new URL('email://threads/t_1/summary')` has host "threads" and path
 * "/t_1/summary"; each template answers only its own shape and returns undefined otherwise.
 */
export function mailResources(mail: MailService): ResourceTemplateDef[] {
  return [
    {
      name: 'mail-inbox',
      uriTemplate: 'email://inboxes/{inbox_id}',
      description: 'A mail inbox: address, labels, status (active|paused).',
      mimeType: 'application/json',
      list: async () => mail.store.listInboxes().map((ib) => ({ uri: `email://inboxes/${encodeURIComponent(ib.id)}`, name: ib.address, description: `Inbox ${ib.address}` })),
      read: readById(mail, 'inboxes', undefined, 'resources/inbox', (id) => mail.inboxDto(mail.store.inbox(id))),
    },
    {
      name: 'mail-inbox-threads',
      uriTemplate: 'email://inboxes/{inbox_id}/threads{?status,label,cursor,limit}',
      description: 'Threads of an inbox (same shape and paging as list_threads), filtered by status and label.',
      mimeType: 'application/json',
      list: async () => mail.store.listInboxes().map((ib) => ({ uri: `email://inboxes/${encodeURIComponent(ib.id)}/threads?status=open`, name: `Open threads in ${ib.address}` })),
      read: readById(mail, 'inboxes', 'threads', 'tools/list_threads.output', (id, u) => {
        const q = u.searchParams;
        const status = q.get('status') || undefined;
        if (status && !['open', 'closed', 'snoozed'].includes(status)) throw new MailroomError('invalid_argument', `status must be open, closed or snoozed, not '${status}'.`);
        const limit = q.get('limit') ? Number(q.get('limit')) : undefined;
        if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 200)) throw new MailroomError('invalid_argument', 'limit must be a whole number from 1 to 200.');
        return mail.listThreads({ inbox_id: id, status: status as ThreadStatus | undefined, label: q.get('label') || undefined, cursor: q.get('cursor') || undefined, limit });
      }),
    },
    {
      name: 'mail-thread',
      uriTemplate: 'email://threads/{thread_id}',
      description: 'A mail thread: subject, status, labels, participants, updated_at.',
      mimeType: 'application/json',
      list: async () =>
        mail.store.listInboxes().flatMap((ib) =>
          mail.store.threadsByRecent(ib.id, 50).map((t) => ({ uri: `email://threads/${t.id}`, name: t.subject || '(no subject)', description: `Thread in ${ib.address}, updated ${t.updated_at}` })),
        ),
      read: readById(mail, 'threads', undefined, 'resources/thread', (id) => mail.threadDto(mail.store.thread(id))),
    },
    {
      name: 'mail-message',
      uriTemplate: 'email://messages/{message_id}',
      description: 'One message: participants, subject, text, sanitised HTML, direction, created_at.',
      mimeType: 'application/json',
      read: readById(mail, 'messages', undefined, 'resources/message', (id) => mail.messageDto(mail.store.message(id))),
    },
    {
      name: 'mail-thread-summary',
      uriTemplate: 'email://threads/{thread_id}/summary',
      description: 'A short extractive summary of a thread (computed locally).',
      mimeType: 'application/json',
      read: readById(mail, 'threads', 'summary', 'resources/thread_summary', (id) => mail.summary(id)),
    },
  ];
}

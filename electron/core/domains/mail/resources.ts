import type { ResourceTemplateDef } from '../../kernel/types';
import { MailroomError } from '../../kernel/errors';
import type { MailService } from './service';
import type { ThreadStatus } from './store';

const seg = (u: URL) => u.pathname.split('/').filter(Boolean).map(decodeURIComponent);

/**
 * The seed's resource URIs. `new URL('email://threads/t_1/summary')` has host "threads" and path
 * "/t_1/summary"; each template answers only its own shape and returns undefined otherwise.
 */
export function mailResources(mail: MailService): ResourceTemplateDef[] {
  const isEmail = (u: URL) => u.protocol === 'email:';
  return [
    {
      name: 'mail-inbox',
      uriTemplate: 'email://inboxes/{inbox_id}',
      description: 'A mail inbox: address, labels, status (active|paused).',
      mimeType: 'application/json',
      list: async () => mail.store.listInboxes().map((ib) => ({ uri: `email://inboxes/${encodeURIComponent(ib.id)}`, name: ib.address, description: `Inbox ${ib.address}` })),
      read: async (u) => {
        const s = seg(u);
        const [id = ''] = s; // read only once the length check below passed
        if (!isEmail(u) || u.host !== 'inboxes' || s.length !== 1) return undefined;
        const out = mail.inboxDto(mail.store.inbox(id));
        mail.contracts.check('resources/inbox', out);
        return out;
      },
    },
    {
      name: 'mail-inbox-threads',
      uriTemplate: 'email://inboxes/{inbox_id}/threads{?status,label,cursor,limit}',
      description: 'Threads of an inbox (same shape and paging as list_threads), filtered by status and label.',
      mimeType: 'application/json',
      list: async () => mail.store.listInboxes().map((ib) => ({ uri: `email://inboxes/${encodeURIComponent(ib.id)}/threads?status=open`, name: `Open threads in ${ib.address}` })),
      read: async (u) => {
        const s = seg(u);
        const [id = ''] = s; // read only once the length check below passed
        if (!isEmail(u) || u.host !== 'inboxes' || s.length !== 2 || s[1] !== 'threads') return undefined;
        const q = u.searchParams;
        const status = q.get('status') || undefined;
        if (status && !['open', 'closed', 'snoozed'].includes(status)) throw new MailroomError('invalid_argument', `status must be open, closed or snoozed, not '${status}'.`);
        const limit = q.get('limit') ? Number(q.get('limit')) : undefined;
        if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 200)) throw new MailroomError('invalid_argument', 'limit must be a whole number from 1 to 200.');
        const out = mail.listThreads({ inbox_id: id, status: status as ThreadStatus | undefined, label: q.get('label') || undefined, cursor: q.get('cursor') || undefined, limit });
        mail.contracts.check('tools/list_threads.output', out);
        return out;
      },
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
      read: async (u) => {
        const s = seg(u);
        const [id = ''] = s; // read only once the length check below passed
        if (!isEmail(u) || u.host !== 'threads' || s.length !== 1) return undefined;
        const out = mail.threadDto(mail.store.thread(id));
        mail.contracts.check('resources/thread', out);
        return out;
      },
    },
    {
      name: 'mail-message',
      uriTemplate: 'email://messages/{message_id}',
      description: 'One message: participants, subject, text, sanitised HTML, direction, created_at.',
      mimeType: 'application/json',
      read: async (u) => {
        const s = seg(u);
        const [id = ''] = s; // read only once the length check below passed
        if (!isEmail(u) || u.host !== 'messages' || s.length !== 1) return undefined;
        const out = mail.messageDto(mail.store.message(id));
        mail.contracts.check('resources/message', out);
        return out;
      },
    },
    {
      name: 'mail-thread-summary',
      uriTemplate: 'email://threads/{thread_id}/summary',
      description: 'A short extractive summary of a thread (computed locally).',
      mimeType: 'application/json',
      read: async (u) => {
        const s = seg(u);
        const [id = ''] = s; // read only once the length check below passed
        if (!isEmail(u) || u.host !== 'threads' || s.length !== 2 || s[1] !== 'summary') return undefined;
        const out = mail.summary(id);
        mail.contracts.check('resources/thread_summary', out);
        return out;
      },
    },
  ];
}

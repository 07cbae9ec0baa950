import { z } from 'zod';
import { parseWith } from '../../kernel/tool';
import { MailroomError, invalidArgument } from '../../kernel/errors';
import { RawResponse, type RouteDef } from '../../kernel/types';
import { pathParam } from '../../kernel/route';
import type { MailService } from './service';
import { MailForwardBody, MailSendBody, forwardSubject, type MailSendResult } from '../../../../shared/mail-compose';
import type { ThreadStatus } from './store';
import { ImapAccountSchema, MailTestBodySchema, SmtpAccountSchema } from '../../../../shared/settings';

const InboxCreate = z.object({ address: z.string().min(3), id: z.string().optional(), name: z.string().optional(), labels: z.array(z.string()).optional() });
const Imap = ImapAccountSchema;
const Smtp = SmtpAccountSchema;
const InboxPatch = z.object({
  name: z.string().nullable().optional(),
  labels: z.array(z.string()).optional(),
  status: z.enum(['active', 'paused']).optional(),
  imap: Imap.nullable().optional(),
  smtp: Smtp.nullable().optional(),
});
const ThreadPatch = z.object({ status: z.enum(['open', 'closed', 'snoozed']).optional(), snooze_until: z.string().optional(), labels: z.array(z.string()).optional() });
const DraftCreate = z.object({ policy_id: z.string().default('default'), goal: z.string().min(1) });
const Reply = z.object({ body_or_draft_id: z.string().min(1), idempotency_key: z.string().min(1) });

/** REST for the Mail page and the CLI (`/api/mail/...`). */
export function mailRoutes(mail: MailService): RouteDef[] {
  const s = mail.store;
  return [
    { method: 'GET', path: '/api/mail/inboxes', handler: () => s.listInboxes().map((ib) => mail.inboxView(ib)) },
    { method: 'POST', path: '/api/mail/inboxes', handler: (req) => mail.inboxView(mail.createInbox(parseWith(InboxCreate, req.body, 'inbox'))) },
    // Settings → Mail accounts: "Test connection" before saving.
    { method: 'POST', path: '/api/mail/accounts/test', handler: async (req) => mail.testAccount(parseWith(MailTestBodySchema, req.body, 'account test')) },
    { method: 'GET', path: '/api/mail/inboxes/:id', handler: (req) => mail.inboxView(s.inbox(pathParam(req, 'id'))) },
    { method: 'PATCH', path: '/api/mail/inboxes/:id', handler: (req) => mail.inboxView(mail.updateInbox(pathParam(req, 'id'), parseWith(InboxPatch, req.body, 'inbox settings'))) },
    {
      method: 'DELETE',
      path: '/api/mail/inboxes/:id',
      handler: (req) => {
        mail.deleteInbox(pathParam(req, 'id'));
        return { ok: true };
      },
    },
    {
      // The Mail page's thread list: pages of recent activity for a virtualized list, any size of inbox.
      method: 'GET',
      path: '/api/mail/inboxes/:id/threads/page',
      handler: (req) => {
        const ib = s.inbox(pathParam(req, 'id'));
        const status = (req.query.get('status') || undefined) as ThreadStatus | undefined;
        if (status && !['open', 'closed', 'snoozed'].includes(status)) throw invalidArgument('status must be open, closed or snoozed.');
        const limit = Math.max(1, Math.min(500, Number(req.query.get('limit') ?? 100) || 100));
        const cursor = req.query.get('cursor');
        let after: { u: string; s: number } | undefined;
        if (cursor) {
          try {
            after = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { u: string; s: number };
          } catch {
            after = undefined;
          }
          if (!after || typeof after.u !== 'string' || typeof after.s !== 'number') throw new MailroomError('invalid_cursor', 'That cursor is not one this list gave out; start again without a cursor.', { cursor });
        }
        const rows = s.threadsByRecentPage({ inboxId: ib.id, status, after, limit: limit + 1 });
        const page = rows.slice(0, limit);
        const last = page[page.length - 1];
        return {
          threads: page.map((t) => ({ ...mail.threadDto(t), snooze_until: t.snooze_until, unread: t.unread, messages: t.messages, triage: t.triage })),
          next_cursor: rows.length > limit && last ? Buffer.from(JSON.stringify({ u: last.updated_at, s: last.seq })).toString('base64url') : null,
        };
      },
    },
    {
      method: 'GET',
      path: '/api/mail/inboxes/:id/threads',
      handler: (req) => {
        const ib = s.inbox(pathParam(req, 'id'));
        const status = (req.query.get('status') || undefined) as ThreadStatus | undefined;
        if (status && !['open', 'closed', 'snoozed'].includes(status)) throw invalidArgument('status must be open, closed or snoozed.');
        const unread = s.unreadByThread(ib.id);
        const counts = Object.fromEntries(
          (s.db.prepare('SELECT thread_id, count(*) AS n FROM mail_messages WHERE inbox_id = ? GROUP BY thread_id').all(ib.id) as Array<{ thread_id: string; n: number }>).map((r) => [r.thread_id, r.n]),
        );
        const limit = Math.min(500, Number(req.query.get('limit') ?? 200) || 200);
        return s.threadsByRecent(ib.id, limit, { status, label: req.query.get('label') || undefined }).map((t) => ({
          ...mail.threadDto(t),
          snooze_until: t.snooze_until,
          unread: unread[t.id] ?? 0,
          messages: counts[t.id] ?? 0,
          triage: t.triage,
        }));
      },
    },
    {
      method: 'GET',
      path: '/api/mail/threads/:id',
      handler: (req) => {
        const t = s.thread(pathParam(req, 'id'));
        return {
          thread: { ...mail.threadDto(t), snooze_until: t.snooze_until, triage: t.triage },
          messages: s.threadMessages(t.id).map((m) => ({ ...mail.messageDto(m), remote_content: m.remote_content, attachments: m.attachments, seen: m.seen, triage: m.triage })),
          drafts: mail.threadDrafts(t.id),
          outbox: mail.outbox.list().filter((o) => o.thread_id === t.id),
          summary: mail.summary(t.id).summary,
        };
      },
    },
    {
      method: 'PATCH',
      path: '/api/mail/threads/:id',
      handler: (req) => {
        const p = parseWith(ThreadPatch, req.body, 'thread update');
        let t = s.thread(pathParam(req, 'id'));
        if (p.status) t = s.setThreadStatus(t.id, p.status, p.snooze_until);
        if (p.labels) t = s.setThreadLabels(t.id, p.labels);
        mail.changed(t.inbox_id, 'thread', { thread_id: t.id });
        return { ...mail.threadDto(t), snooze_until: t.snooze_until };
      },
    },
    {
      method: 'POST',
      path: '/api/mail/threads/:id/seen',
      handler: (req) => {
        const t = s.thread(pathParam(req, 'id'));
        s.markThreadSeen(t.id);
        mail.changed(t.inbox_id, 'seen', { thread_id: t.id });
        return { ok: true };
      },
    },
    {
      method: 'GET',
      path: '/api/mail/search',
      handler: (req) => {
        const inbox = req.query.get('inbox');
        const q = req.query.get('q') ?? '';
        if (!inbox) throw invalidArgument('Pass ?inbox=ID&q=words.');
        const start = req.query.get('start') || undefined;
        const end = req.query.get('end') || undefined;
        const r = mail.searchInbox({ inbox_id: inbox, query: q, top_k: Math.min(50, Number(req.query.get('top_k') ?? 20) || 20), time_range: start || end ? { start, end } : undefined });
        const results = (r.results as Array<{ message_id: string; thread_id: string; score: number; snippet?: string }>).map((h) => {
          const m = s.findMessage(h.message_id);
          return { ...h, subject: m?.subject ?? '', from: m?.from ?? null, created_at: m?.created_at ?? null };
        });
        return { results };
      },
    },
    { method: 'POST', path: '/api/mail/messages/:id/triage', handler: async (req) => mail.triageMessage({ message_id: pathParam(req, 'id'), taxonomy_id: (req.body as { taxonomy_id?: string } | undefined)?.taxonomy_id ?? 'default' }) },
    {
      // The Mail page's relabel (intent / urgency change): stored as a labelled example for later triage.
      method: 'POST',
      path: '/api/mail/messages/:id/relabel',
      handler: (req) => mail.relabel({ message_id: pathParam(req, 'id'), ...parseWith(z.object({ intent: z.string().min(1).optional(), urgency: z.enum(['low', 'medium', 'high']).optional(), taxonomy_id: z.string().min(1).optional() }), req.body, 'relabel') }),
    },
    { method: 'POST', path: '/api/mail/messages/:id/extract', handler: async (req) => mail.extract({ message_id: pathParam(req, 'id'), schema_id: String((req.body as { schema_id?: string } | undefined)?.schema_id ?? '') }) },
    { method: 'GET', path: '/api/mail/messages/:id/raw', handler: (req) => new RawResponse(200, s.messageRaw(pathParam(req, 'id')), { 'content-type': 'message/rfc822', 'content-disposition': `attachment; filename="${pathParam(req, 'id')}.eml"` }) },
    { method: 'POST', path: '/api/mail/messages/:id/save-to-inbox', handler: async (req) => ({ result: (await mail.saveToInbox({ message_id: pathParam(req, 'id') })) ?? null }) },
    { method: 'POST', path: '/api/mail/threads/:id/save-to-inbox', handler: async (req) => ({ result: (await mail.saveToInbox({ thread_id: pathParam(req, 'id') })) ?? null }) },
    { method: 'POST', path: '/api/mail/messages/:id/route', handler: async (req) => ({ result: (await mail.route(pathParam(req, 'id'), (req.body as { dry_run?: boolean } | undefined)?.dry_run !== false)) ?? null }) },
    { method: 'POST', path: '/api/mail/threads/:id/drafts', handler: async (req) => mail.draftReply({ thread_id: pathParam(req, 'id'), ...parseWith(DraftCreate, req.body, 'draft request') }) },
    { method: 'PATCH', path: '/api/mail/drafts/:id', handler: (req) => mail.updateDraft(pathParam(req, 'id'), parseWith(z.object({ body: z.string().min(1) }), req.body, 'draft').body) },
    { method: 'POST', path: '/api/mail/drafts/:id/approve', handler: (req) => mail.approveDraft(pathParam(req, 'id')) },
    {
      method: 'DELETE',
      path: '/api/mail/drafts/:id',
      handler: (req) => {
        mail.discardDraft(pathParam(req, 'id'));
        return { ok: true };
      },
    },
    {
      // Approve & Send: the key is derived from the draft, so a double click never sends twice.
      method: 'POST',
      path: '/api/mail/drafts/:id/send',
      handler: async (req) => {
        const d = mail.draft(pathParam(req, 'id'));
        const key = `draft:${d.id}`;
        if (!mail.outbox.get(key) && d.needs_human_approval && !d.approved_at) mail.approveDraft(d.id);
        return mail.sendReply({ thread_id: d.thread_id, body_or_draft_id: d.id, idempotency_key: key });
      },
    },
    {
      method: 'POST',
      path: '/api/mail/inboxes/:id/send',
      handler: async (req): Promise<MailSendResult> => mail.sendMessage({ inbox_id: pathParam(req, 'id'), ...parseWith(MailSendBody, req.body, 'message') }),
    },
    {
      method: 'POST',
      path: '/api/mail/messages/:id/forward',
      handler: async (req): Promise<MailSendResult> => {
        const b = parseWith(MailForwardBody, req.body, 'forward');
        const m = mail.store.message(pathParam(req, 'id'));
        return mail.sendMessage({ inbox_id: m.inbox_id, ...b, subject: b.subject?.trim() || forwardSubject(m.subject), forward_of: m.id });
      },
    },
    { method: 'POST', path: '/api/mail/threads/:id/reply', handler: async (req) => mail.sendReply({ thread_id: pathParam(req, 'id'), ...parseWith(Reply, req.body, 'reply') }) },
    { method: 'GET', path: '/api/mail/outbox', handler: (req) => mail.outbox.list(req.query.get('inbox') || undefined) },
    {
      method: 'POST',
      path: '/api/mail/outbox/:key/resolve',
      handler: (req) => mail.outbox.resolve(pathParam(req, 'key'), parseWith(z.object({ action: z.enum(['retry', 'mark_sent']) }), req.body, 'outbox action').action),
    },
    {
      method: 'POST',
      path: '/api/mail/import',
      // The inbox is checked before the body is read; the body streams to a private temp file.
      streamBody: true,
      handler: async (req) => {
        const inbox = req.query.get('inbox');
        if (!inbox) throw invalidArgument('Pass ?inbox=ID (and &filename=…) with the mbox or .eml file as the body.');
        return mail.importUploadStream(inbox, req.stream!, req.query.get('filename') || 'upload', req.query.get('import_id') || undefined);
      },
    },
    {
      method: 'POST',
      path: '/api/mail/import-path',
      handler: async (req) => {
        const b = parseWith(z.object({ inbox: z.string().min(1), path: z.string().min(1) }), req.body, 'import');
        return mail.importPath(b.inbox, b.path);
      },
    },
    {
      method: 'GET',
      path: '/api/mail/config',
      handler: () => ({ taxonomies: mail.files.taxonomyIds(), schemas: mail.files.schemaIds(), policies: mail.files.policyIds() }),
    },
    {
      method: 'GET',
      path: '/api/mail/taxonomies/:id',
      handler: (req) => {
        const t = mail.files.taxonomy(pathParam(req, 'id'));
        return { id: t.id, name: t.name, intents: t.intents.map((i) => ({ id: i.id, description: i.description })), precedence: t.precedence };
      },
    },
    { method: 'POST', path: '/api/mail/config/install-defaults', handler: () => ({ written: mail.files.installDefaults() }) },
    {
      method: 'POST',
      path: '/api/mail/inboxes/:id/sync',
      handler: async (req) => {
        const ib = s.inbox(pathParam(req, 'id'));
        if (!ib.imap) throw new MailroomError('imap_not_configured', `Inbox '${ib.id}' has no IMAP settings.`, { inbox_id: ib.id }, 409);
        await mail.syncNow(ib.id);
        return mail.inboxView(ib);
      },
    },
  ];
}

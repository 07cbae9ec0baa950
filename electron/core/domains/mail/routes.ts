import { parseWith } from '../../kernel/tool';
import { MailroomError } from '../../kernel/errors';
import { RawResponse, type RouteDef } from '../../kernel/types';
import { implement } from '../../kernel/route';
import type { MailService } from './service';
import type { InboxRow, MessageRow, ThreadRow } from './store';
import {
  mailRoutes as R,
  forwardSubject,
  type InboxView,
  type MessageView,
  type SearchHit,
  type ThreadItem,
  type Triage,
} from '../../../../shared/contract/mail';

/**
 * REST for the Mail page, Settings → Mail accounts and the CLI (`/api/mail/...`), as the contract
 * (shared/contract/mail.ts) defines it. The service builds its DTOs as plain JSON objects; the
 * casts below are where they meet the contract's types (the reply-schema test checks the shapes).
 */
export function mailRoutes(mail: MailService): RouteDef[] {
  const s = mail.store;
  const view = (ib: InboxRow) => mail.inboxView(ib) as InboxView;
  const threadDto = (t: ThreadRow) => mail.threadDto(t) as Omit<ThreadItem, 'snooze_until' | 'unread' | 'messages' | 'triage'>;
  const messageDto = (m: MessageRow) => mail.messageDto(m) as Omit<MessageView, 'remote_content' | 'attachments' | 'triage'>;
  const triageOf = (x: { triage: Record<string, unknown> | null }) => x.triage as Triage | null;
  return [
    implement(R.inboxes, () => s.listInboxes().map(view)),
    implement(R.createInbox, (req) => view(mail.createInbox(parseWith(R.createInbox.body, req.body, 'inbox')))),
    implement(R.testAccount, async (req) => mail.testAccount(parseWith(R.testAccount.body, req.body, 'account test'))),
    implement(R.inbox, (req) => view(s.inbox(req.params.id))),
    implement(R.updateInbox, (req) => view(mail.updateInbox(req.params.id, parseWith(R.updateInbox.body, req.body, 'inbox settings')))),
    implement(R.deleteInbox, (req) => {
      mail.deleteInbox(req.params.id);
      return { ok: true };
    }),
    implement(R.threadsPage, (req) => {
      const ib = s.inbox(req.params.id);
      const { status, limit, cursor } = req.query;
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
        threads: page.map((t) => ({ ...threadDto(t), snooze_until: t.snooze_until, unread: t.unread, messages: t.messages, triage: triageOf(t) })),
        next_cursor: rows.length > limit && last ? Buffer.from(JSON.stringify({ u: last.updated_at, s: last.seq })).toString('base64url') : null,
      };
    }),
    implement(R.threads, (req) => {
      const ib = s.inbox(req.params.id);
      const { status, label, limit } = req.query;
      const unread = s.unreadByThread(ib.id);
      const counts = Object.fromEntries(
        (s.db.prepare('SELECT thread_id, count(*) AS n FROM mail_messages WHERE inbox_id = ? GROUP BY thread_id').all(ib.id) as Array<{ thread_id: string; n: number }>).map((r) => [r.thread_id, r.n]),
      );
      return s.threadsByRecent(ib.id, limit, { status, label }).map((t) => ({
        ...threadDto(t),
        snooze_until: t.snooze_until,
        unread: unread[t.id] ?? 0,
        messages: counts[t.id] ?? 0,
        triage: triageOf(t),
      }));
    }),
    implement(R.thread, (req) => {
      const t = s.thread(req.params.id);
      return {
        thread: { ...threadDto(t), snooze_until: t.snooze_until, triage: triageOf(t) },
        messages: s.threadMessages(t.id).map((m) => ({ ...messageDto(m), remote_content: m.remote_content, attachments: m.attachments, seen: m.seen, triage: triageOf(m) })),
        drafts: mail.threadDrafts(t.id),
        outbox: mail.outbox.list().filter((o) => o.thread_id === t.id),
        summary: String(mail.summary(t.id).summary),
      };
    }),
    implement(R.updateThread, (req) => {
      const p = parseWith(R.updateThread.body, req.body, 'thread update');
      let t = s.thread(req.params.id);
      if (p.status) t = s.setThreadStatus(t.id, p.status, p.snooze_until);
      if (p.labels) t = s.setThreadLabels(t.id, p.labels);
      mail.changed(t.inbox_id, 'thread', { thread_id: t.id });
      return { ...threadDto(t), snooze_until: t.snooze_until };
    }),
    implement(R.threadSeen, (req) => {
      const t = s.thread(req.params.id);
      s.markThreadSeen(t.id);
      mail.changed(t.inbox_id, 'seen', { thread_id: t.id });
      return { ok: true };
    }),
    implement(R.search, (req) => {
      const { inbox, q, start, end, top_k } = req.query;
      const r = mail.searchInbox({ inbox_id: inbox, query: q, top_k, time_range: start || end ? { start, end } : undefined });
      const results = (r.results as Array<{ message_id: string; thread_id: string; score: number; snippet?: string }>).map((h): SearchHit => {
        const m = s.findMessage(h.message_id);
        return { ...h, subject: m?.subject ?? '', from: m?.from ?? null, created_at: m?.created_at ?? null };
      });
      return { results };
    }),
    implement(R.triage, async (req) => mail.triageMessage({ message_id: req.params.id, taxonomy_id: parseWith(R.triage.body, req.body, 'triage').taxonomy_id ?? 'default' })),
    implement(R.relabel, (req) => mail.relabel({ message_id: req.params.id, ...parseWith(R.relabel.body, req.body, 'relabel') })),
    implement(R.extract, async (req) => mail.extract({ message_id: req.params.id, schema_id: parseWith(R.extract.body, req.body, 'extract').schema_id ?? '' })),
    implement(R.raw, (req) => new RawResponse(200, s.messageRaw(req.params.id), { 'content-type': 'message/rfc822', 'content-disposition': `attachment; filename="${req.params.id}.eml"` })),
    implement(R.messageToInbox, async (req) => ({ result: (await mail.saveToInbox({ message_id: req.params.id })) ?? null })),
    implement(R.threadToInbox, async (req) => ({ result: (await mail.saveToInbox({ thread_id: req.params.id })) ?? null })),
    implement(R.routeMessage, async (req) => ({ result: (await mail.route(req.params.id, parseWith(R.routeMessage.body, req.body, 'route request').dry_run !== false)) ?? null })),
    implement(R.createDraft, async (req) => mail.draftReply({ thread_id: req.params.id, ...parseWith(R.createDraft.body, req.body, 'draft request') })),
    implement(R.updateDraft, (req) => mail.updateDraft(req.params.id, parseWith(R.updateDraft.body, req.body, 'draft').body)),
    implement(R.approveDraft, (req) => mail.approveDraft(req.params.id)),
    implement(R.deleteDraft, (req) => {
      mail.discardDraft(req.params.id);
      return { ok: true };
    }),
    implement(R.sendDraft, async (req) => {
      const d = mail.draft(req.params.id);
      const key = `draft:${d.id}`;
      if (!mail.outbox.get(key) && d.needs_human_approval && !d.approved_at) mail.approveDraft(d.id);
      return mail.sendReply({ thread_id: d.thread_id, body_or_draft_id: d.id, idempotency_key: key });
    }),
    implement(R.send, async (req) => mail.sendMessage({ inbox_id: req.params.id, ...parseWith(R.send.body, req.body, 'message') })),
    implement(R.forward, async (req) => {
      const b = parseWith(R.forward.body, req.body, 'forward');
      const m = mail.store.message(req.params.id);
      return mail.sendMessage({ inbox_id: m.inbox_id, ...b, subject: b.subject?.trim() || forwardSubject(m.subject), forward_of: m.id });
    }),
    implement(R.reply, async (req) => mail.sendReply({ thread_id: req.params.id, ...parseWith(R.reply.body, req.body, 'reply') })),
    implement(R.outbox, (req) => mail.outbox.list(req.query.inbox)),
    implement(R.resolveOutbox, (req) => mail.outbox.resolve(req.params.key, parseWith(R.resolveOutbox.body, req.body, 'outbox action').action)),
    // The inbox is checked (by the query's schema) before the body is read; the body streams to a private temp file.
    implement(R.importUpload, async (req) => mail.importUploadStream(req.query.inbox, req.stream!, req.query.filename, req.query.import_id), { streamBody: true }),
    implement(R.importPath, async (req) => {
      const b = parseWith(R.importPath.body, req.body, 'import');
      return mail.importPath(b.inbox, b.path);
    }),
    implement(R.config, () => ({ taxonomies: mail.files.taxonomyIds(), schemas: mail.files.schemaIds(), policies: mail.files.policyIds() })),
    implement(R.taxonomy, (req) => {
      const t = mail.files.taxonomy(req.params.id);
      return { id: t.id, name: t.name, intents: t.intents.map((i) => ({ id: i.id, description: i.description })), precedence: t.precedence };
    }),
    implement(R.installDefaults, () => ({ written: mail.files.installDefaults() })),
    implement(R.sync, async (req) => {
      const ib = s.inbox(req.params.id);
      if (!ib.imap) throw new MailroomError('imap_not_configured', `Inbox '${ib.id}' has no IMAP settings.`, { inbox_id: ib.id }, 409);
      await mail.syncNow(ib.id);
      return view(ib);
    }),
  ];
}

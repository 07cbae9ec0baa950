import { MailroomError } from '../../kernel/errors';
import type { MailPart } from './part';
import type { MessageRow, ThreadRow } from './store';

/** Mail into the rest of Mailroom: a thread or message saved to the inbox as a note, or routed. */
export class MailBridges {
  constructor(private readonly p: MailPart) {}

  private threadAsNote(t: ThreadRow, only?: MessageRow): { title: string; content: string } {
    const msgs = only ? [only] : this.p.store.threadMessages(t.id);
    const body = msgs
      .map((m) => `## ${m.from?.name ?? m.from?.email ?? 'unknown'} — ${m.created_at}\n\n${m.text.trim() || '(no text)'}`)
      .join('\n\n');
    const head = `Mail thread ${t.id}${only ? `, message ${only.id}` : ''} · ${t.participants.map((p) => p.email).join(', ')}`;
    return { title: only?.subject || t.subject || '(no subject)', content: `${head}\n\n${body}\n` };
  }

  async saveToInbox(target: { thread_id?: string; message_id?: string }): Promise<unknown> {
    if (!this.p.deps.inbox) throw new MailroomError('unavailable', 'The inbox is not available in this Mailroom, so mail cannot be saved as a note.', {}, 503);
    const m = target.message_id ? this.p.store.message(target.message_id) : undefined;
    const t = this.p.store.thread(m?.thread_id ?? target.thread_id ?? '');
    const note = this.threadAsNote(t, m);
    const tri = (m?.triage ?? t.triage) as { suggested_route?: string; intent?: string } | null;
    const folder = tri?.suggested_route?.startsWith('vault:') ? tri.suggested_route.slice(6) : undefined;
    return this.p.deps.inbox.save({ content: note.content, title: note.title, processing_hints: { ...(folder ? { category: folder } : {}), tags: ['mail', ...(tri?.intent ? [tri.intent] : [])] } });
  }

  async route(messageId: string, dryRun: boolean): Promise<unknown> {
    const m = this.p.store.message(messageId);
    const tri = m.triage as { suggested_route?: string; intent?: string } | null;
    if (!tri?.suggested_route) throw new MailroomError('not_triaged', `Message ${m.id} has no suggested route yet; run triage_message first.`, { message_id: m.id }, 409);
    if (tri.suggested_route.startsWith('vault:')) return { saved: await this.saveToInbox({ message_id: m.id }) };
    if (!this.p.deps.router) throw new MailroomError('unavailable', 'The router is not available in this Mailroom.', {}, 503);
    const t = this.p.store.thread(m.thread_id);
    const note = this.threadAsNote(t, m);
    return this.p.deps.router.routeItem(
      { route: tri.suggested_route.replace(/^route:/, ''), source: 'mail', title: note.title, content: note.content, metadata: { message_id: m.id, thread_id: t.id, intent: tri.intent, from: m.from?.email } },
      { dryRun },
    );
  }
}

import { MailroomError, invalidArgument } from '../../kernel/errors';
import { sha, type DraftRow, type MailDrafts } from './drafting';
import type { Outbox, OutboxRow } from './outbox';
import type { MailPart } from './part';
import type { InboxRow, MessageRow, ThreadRow } from './store';

const shuttingDown = () =>
  new MailroomError('shutting_down', 'Mailroom is stopping; the reply stays in the outbox and is sent at the next start. Check the outbox on the Mail page.', {}, 503);

/** Sending: replies (a draft or text) and new messages and forwards, once per idempotency key, through the outbox. */
export class MailSending {
  constructor(
    private readonly p: MailPart,
    private readonly drafts: MailDrafts,
    private readonly outbox: Outbox,
  ) {}

  /** A draft named by id, or a stored draft of this thread with exactly this text. */
  private resolveBody(threadId: string, bodyOrDraftId: string): { body: string; draft?: DraftRow } {
    const v = bodyOrDraftId;
    if (/^d_[0-9a-f]{20}$/.test(v.trim())) {
      const d = this.drafts.draft(v.trim());
      if (d.thread_id !== threadId) throw invalidArgument(`Draft '${d.id}' belongs to thread '${d.thread_id}', not '${threadId}'.`);
      return { body: d.body, draft: d };
    }
    if (!v.trim()) throw invalidArgument('body_or_draft_id is empty: pass the reply text or a draft id (d_…).');
    const r = this.p.store.db.prepare("SELECT * FROM mail_drafts WHERE thread_id = ? AND body_sha = ? AND status != 'discarded' ORDER BY created_at DESC LIMIT 1").get(threadId, sha(v.trim())) as
      | Record<string, unknown>
      | undefined;
    return { body: v, draft: r ? this.drafts.fromRow(r) : undefined };
  }

  async sendReply(a: { thread_id: string; body_or_draft_id: string; idempotency_key: string }, waitMs = 20_000): Promise<{ message_id: string; status: 'queued' | 'sent' }> {
    if (!a.idempotency_key.trim()) throw invalidArgument('idempotency_key is empty; pass a unique key per reply (a UUID works).');
    const t = this.p.store.thread(a.thread_id);
    const ib = this.p.store.inbox(t.inbox_id);
    const { body, draft } = this.resolveBody(t.id, a.body_or_draft_id);
    const row: OutboxRow | undefined = this.outbox.get(a.idempotency_key);
    if (!row) {
      if (draft?.needs_human_approval && !draft.approved_at) {
        throw new MailroomError(
          'approval_required',
          `Draft ${draft.id} needs a person's approval (${draft.risk_flags.join(', ') || 'policy requires it'}). Open the thread on the Mail page, review it and click Approve & Send.`,
          { draft_id: draft.id, risk_flags: draft.risk_flags },
          403,
        );
      }
      if (draft?.status === 'sent') throw new MailroomError('draft_already_sent', `Draft ${draft.id} was already sent (under another idempotency key).`, { draft_id: draft.id }, 409);
      this.canSend(ib);
    }
    const q = await this.outbox.enqueue({ key: a.idempotency_key, thread: t, inbox: ib, messages: this.p.store.threadMessages(t.id), body, draftId: draft?.id });
    return this.deliver(q.row, waitMs);
  }

  private canSend(ib: InboxRow): void {
    if (!ib.smtp) throw new MailroomError('smtp_not_configured', `Inbox '${ib.id}' has no SMTP settings. Add an SMTP account for ${ib.address} in Settings → Mail accounts (#/settings/mail), then send again.`, { inbox_id: ib.id }, 409);
    if (ib.status === 'paused') throw new MailroomError('inbox_paused', `Inbox '${ib.id}' is paused; resume it to send.`, { inbox_id: ib.id }, 409);
  }

  /**
   * A new message from an inbox (From = the inbox's address, through its SMTP account), or — with
   * `forward_of` — a forward of one of its messages. Idempotent per `idempotency_key`, through the
   * same outbox as replies.
   */
  async sendMessage(
    a: { inbox_id: string; to: string[]; cc?: string[]; subject: string; body: string; idempotency_key: string; forward_of?: string },
    waitMs = 20_000,
  ): Promise<{ message_id: string; status: 'queued' | 'sent'; thread_id: string | null }> {
    if (!a.idempotency_key.trim()) throw invalidArgument('idempotency_key is empty; pass a unique key per message (a UUID works).');
    const ib = this.p.store.inbox(a.inbox_id);
    const bad = [...a.to, ...(a.cc ?? [])].filter((x) => !/^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/.test(x));
    if (bad.length) throw invalidArgument(`Not an email address: ${bad.join(', ')}.`, { invalid: bad });
    if (!a.to.length) throw invalidArgument('Add at least one recipient (To).');
    let forward: { thread: ThreadRow; message: MessageRow; raw: Buffer } | undefined;
    if (a.forward_of) {
      const message = this.p.store.message(a.forward_of);
      if (message.inbox_id !== ib.id) throw invalidArgument(`Message '${a.forward_of}' is not in inbox '${ib.id}'.`, { message_id: a.forward_of });
      forward = { message, thread: this.p.store.thread(message.thread_id), raw: this.p.store.messageRaw(message.id) };
    }
    if (!this.outbox.get(a.idempotency_key)) this.canSend(ib);
    const q = await this.outbox.enqueueOutgoing({ key: a.idempotency_key, inbox: ib, to: a.to, cc: a.cc ?? [], subject: a.subject, body: a.body, forward });
    const r = await this.deliver(q.row, waitMs);
    return { ...r, thread_id: this.outbox.get(a.idempotency_key)?.thread_id || null };
  }

  /** Waits for the first attempt (up to waitMs) and turns a failed or uncertain row into its error. */
  private async deliver(queued: OutboxRow, waitMs: number): Promise<{ message_id: string; status: 'queued' | 'sent' }> {
    let row = queued;
    if (row.status === 'queued') {
      row = await this.awaitAttempt(row.idempotency_key, waitMs);
    }
    if (row.status === 'failed') {
      throw new MailroomError('send_failed', `Sending failed: ${row.last_error ?? 'unknown error'}. Fix the account in Settings → Mail accounts, then retry from the outbox on the Mail page.`, { message_id: row.message_id, idempotency_key: row.idempotency_key }, 502);
    }
    if (row.status === 'uncertain') {
      throw new MailroomError('delivery_uncertain', row.last_error ?? 'The delivery result is unknown; check, then retry or mark sent on the Mail page.', { message_id: row.message_id, idempotency_key: row.idempotency_key }, 409);
    }
    return { message_id: row.message_id, status: row.status === 'sent' ? 'sent' : 'queued' };
  }

  /**
   * Waits up to waitMs for the first delivery attempt, then answers with the row as it stands.
   * The wait is owned by the service: stop() ends it (no timer outlives stop() to read a closed DB).
   */
  private async awaitAttempt(key: string, waitMs: number): Promise<OutboxRow> {
    const attempt = this.outbox.attempt(key);
    if (this.p.lifetime().aborted) throw shuttingDown();
    const wait = new AbortController();
    const onStop = () => wait.abort(new Error('mail stopped'));
    this.p.lifetime().addEventListener('abort', onStop, { once: true });
    try {
      const outcome = await Promise.race([
        attempt.then((row) => ({ row })),
        this.p.core.clock.sleep(waitMs, wait.signal).then(
          () => 'timeout' as const,
          () => 'stopped' as const,
        ),
      ]);
      if (outcome === 'stopped') throw shuttingDown();
      if (outcome === 'timeout') {
        if (this.p.lifetime().aborted) throw shuttingDown();
        return this.outbox.get(key)!;
      }
      return outcome.row;
    } finally {
      wait.abort();
      this.p.lifetime().removeEventListener('abort', onStop);
    }
  }
}

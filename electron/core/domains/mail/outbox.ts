import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import { describeMailError } from './accounts';
import type Database from 'better-sqlite3';
import { MailroomError } from '../../kernel/errors';
import type { Clock, Logger, SecretBox } from '../../kernel/index';
import { parseRaw } from './parse';
import { messageIdFor, type InboxRow, type MailStore, type MessageRow, type ThreadRow } from './store';

export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'uncertain';

export interface OutboxRow {
  idempotency_key: string;
  message_id: string;
  thread_id: string;
  inbox_id: string;
  draft_id: string | null;
  body_sha: string;
  internet_message_id: string;
  envelope: { from: string; to: string[] };
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface EnqueueInput {
  key: string;
  thread: ThreadRow;
  inbox: InboxRow;
  messages: MessageRow[];
  body: string;
  draftId?: string;
}

/** A new message or a forward (no reply threading from the thread's sender). */
export interface OutgoingInput {
  key: string;
  inbox: InboxRow;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  /** A forward: the thread and message it forwards (threads with it; the original rides along as .eml). */
  forward?: { thread: ThreadRow; message: MessageRow; raw: Buffer };
}

/** Outbox rows of a new message have no thread until it is sent and stored. */
export const NEW_THREAD = '';

const MAX_ATTEMPTS = 6;
const bodySha = (body: string) => crypto.createHash('sha256').update(body.trim()).digest('hex');

/** One sent message, as History shows it. */
export interface SentEntry {
  key: string;
  at: string;
  to: string[];
  from: string;
  subject: string;
  thread_id: string;
  message_id: string;
}

/**
 * The idempotent outbox. A row per idempotency key is committed before any SMTP traffic, so a
 * retry or a restart finds it; 'sending' is written right before the SMTP transaction and a row
 * left in 'sending' by a crash becomes 'uncertain' (never resent automatically): a key delivers
 * at most once, and exactly once when the process survives or dies before SMTP starts.
 */
export class Outbox {
  private timer: NodeJS.Timeout | undefined;
  private running = new Map<string, Promise<OutboxRow>>();
  private stopped = false;

  constructor(
    private readonly db: Database.Database,
    private readonly store: MailStore,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly onChange: (row: OutboxRow) => void = () => {},
  ) {}

  private iso = (ms = this.clock.now()) => new Date(ms).toISOString();

  private rowFrom(r: Record<string, unknown> | undefined): OutboxRow | undefined {
    if (!r) return undefined;
    const { raw: _raw, envelope, ...rest } = r;
    return { ...(rest as unknown as OutboxRow), envelope: JSON.parse(envelope as string) as OutboxRow['envelope'] };
  }

  get(key: string): OutboxRow | undefined {
    return this.rowFrom(this.db.prepare('SELECT * FROM mail_outbox WHERE idempotency_key = ?').get(key) as Record<string, unknown> | undefined);
  }

  /** Sent messages, newest first, with their envelope and thread subject (what History lists). */
  sentLog(limit: number): SentEntry[] {
    return this.sentRows('ORDER BY at DESC LIMIT ?', limit);
  }

  /** One sent message by its idempotency key (what History's detail shows), or undefined. */
  sentEntry(key: string): SentEntry | undefined {
    return this.sentRows('AND o.idempotency_key = ?', key)[0];
  }

  private sentRows(tail: string, arg: number | string): SentEntry[] {
    const rows = this.db
      .prepare<[number | string], { key: string; at: string; envelope: string; subject: string; thread_id: string; message_id: string }>(
        `SELECT o.idempotency_key AS key, coalesce(o.sent_at, o.created_at) AS at, o.envelope,
                coalesce((SELECT subject FROM mail_threads t WHERE t.id = o.thread_id), '') AS subject, o.thread_id, o.message_id
         FROM mail_outbox o WHERE o.status = 'sent' ${tail}`,
      )
      .all(arg);
    return rows.map(({ envelope, ...r }) => {
      let e: { from?: string; to?: string[] } = {};
      try {
        e = JSON.parse(envelope) as typeof e;
      } catch {
        e = {};
      }
      return { ...r, from: e.from ?? '', to: e.to ?? [] };
    });
  }

  list(inboxId?: string): OutboxRow[] {
    const rows = (inboxId ? this.db.prepare('SELECT * FROM mail_outbox WHERE inbox_id = ? ORDER BY created_at DESC').all(inboxId) : this.db.prepare('SELECT * FROM mail_outbox ORDER BY created_at DESC').all()) as Record<string, unknown>[];
    return rows.map((r) => this.rowFrom(r)!);
  }

  private checkSame(existing: OutboxRow, input: { key: string; thread?: ThreadRow }, sha: string): void {
    if ((input.thread && existing.thread_id !== input.thread.id) || existing.body_sha !== sha) {
      throw new MailroomError(
        'idempotency_conflict',
        `Idempotency key '${input.key}' was already used for a different reply. Use a new key for a new message.`,
        { idempotency_key: input.key, message_id: existing.message_id },
        409,
      );
    }
  }

  /** Commits the outgoing message under its key (or returns the row already there). */
  async enqueue(input: EnqueueInput): Promise<{ row: OutboxRow; created: boolean }> {
    const sha = bodySha(input.body);
    const before = this.get(input.key);
    if (before) {
      this.checkSame(before, input, sha);
      return { row: before, created: false };
    }
    const target = [...input.messages].reverse().find((m) => m.direction === 'inbound') ?? input.messages[input.messages.length - 1];
    const lastWithId = [...input.messages].reverse().find((m) => m.internet_message_id);
    const to = target ? (target.reply_to.length ? target.reply_to : target.from ? [target.from] : []).map((p) => p.email) : [];
    if (to.length === 0) throw new MailroomError('no_recipient', `Thread '${input.thread.id}' has no message with a sender to reply to.`, { thread_id: input.thread.id });
    const domain = input.inbox.address.split('@')[1] ?? 'mailroom.local';
    // Derived from the key, so even a manual retry of an uncertain send carries the same Message-ID.
    const internetId = `<mr.${crypto.createHash('sha256').update(input.inbox.id + '\0' + input.key).digest('hex').slice(0, 32)}@${domain}>`;
    const refs = lastWithId ? [...lastWithId.refs.filter((r) => r !== lastWithId.internet_message_id), lastWithId.internet_message_id!].slice(-20) : [];
    const subject = /^re:/i.test(input.thread.subject) ? input.thread.subject : `Re: ${input.thread.subject}`;
    const raw = await buildRaw({
      from: input.inbox.name ? { name: input.inbox.name, address: input.inbox.address } : input.inbox.address,
      to,
      subject,
      text: input.body,
      messageId: internetId,
      inReplyTo: lastWithId?.internet_message_id ?? undefined,
      references: refs,
      date: new Date(this.clock.now()),
    });
    const messageId = messageIdFor(input.inbox.id, `mid:${internetId}`);
    return this.db.transaction(() => {
      const existing = this.get(input.key);
      if (existing) {
        this.checkSame(existing, input, sha);
        return { row: existing, created: false };
      }
      this.db
        .prepare(
          `INSERT INTO mail_outbox (idempotency_key, message_id, thread_id, inbox_id, draft_id, body_sha, internet_message_id, envelope, raw, status, attempts, next_attempt_at, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?)`,
        )
        .run(input.key, messageId, input.thread.id, input.inbox.id, input.draftId ?? null, sha, internetId, JSON.stringify({ from: input.inbox.address, to }), raw, this.iso(), this.iso());
      return { row: this.get(input.key)!, created: true };
    })();
  }

  /**
   * Commits a new message or a forward under its key (or returns the row already there; the same
   * key with other recipients, subject or text is an idempotency_conflict). From is the inbox.
   */
  async enqueueOutgoing(input: OutgoingInput): Promise<{ row: OutboxRow; created: boolean }> {
    const sha = bodySha(JSON.stringify([input.to, input.cc, input.subject.trim(), input.body.trim(), input.forward?.message.id ?? null]));
    const same = { key: input.key, thread: input.forward?.thread };
    const before = this.get(input.key);
    if (before) {
      this.checkSame(before, same, sha);
      return { row: before, created: false };
    }
    const domain = input.inbox.address.split('@')[1] ?? 'mailroom.local';
    const internetId = `<mr.${crypto.createHash('sha256').update(input.inbox.id + '\0' + input.key).digest('hex').slice(0, 32)}@${domain}>`;
    const fwd = input.forward;
    const parent = fwd?.message.internet_message_id ?? undefined;
    const raw = await buildRaw({
      from: input.inbox.name ? { name: input.inbox.name, address: input.inbox.address } : input.inbox.address,
      to: input.to,
      cc: input.cc,
      subject: input.subject,
      text: fwd ? `${input.body.trim()}\n\n${forwardedBlock(fwd.message)}` : input.body,
      messageId: internetId,
      inReplyTo: parent,
      references: parent ? [...fwd!.message.refs.filter((r) => r !== parent), parent].slice(-20) : [],
      date: new Date(this.clock.now()),
      attachments: fwd && fwd.message.attachments.length ? [{ filename: 'forwarded-message.eml', content: fwd.raw, contentType: 'message/rfc822' }] : [],
    });
    const messageId = messageIdFor(input.inbox.id, `mid:${internetId}`);
    return this.db.transaction(() => {
      const existing = this.get(input.key);
      if (existing) {
        this.checkSame(existing, same, sha);
        return { row: existing, created: false };
      }
      this.db
        .prepare(
          `INSERT INTO mail_outbox (idempotency_key, message_id, thread_id, inbox_id, draft_id, body_sha, internet_message_id, envelope, raw, status, attempts, next_attempt_at, created_at)
           VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, 'queued', 0, ?, ?)`,
        )
        .run(input.key, messageId, fwd?.thread.id ?? NEW_THREAD, input.inbox.id, sha, internetId, JSON.stringify({ from: input.inbox.address, to: [...input.to, ...input.cc] }), raw, this.iso(), this.iso());
      return { row: this.get(input.key)!, created: true };
    })();
  }

  /** One delivery attempt for a queued row (concurrent calls for a key share one attempt). */
  attempt(key: string): Promise<OutboxRow> {
    const inflight = this.running.get(key);
    if (inflight) return inflight;
    const p = this.doAttempt(key).finally(() => this.running.delete(key));
    this.running.set(key, p);
    return p;
  }

  private async doAttempt(key: string): Promise<OutboxRow> {
    // Claim the row atomically: only a 'queued' row moves to 'sending'.
    const claimed = this.db.prepare("UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1 WHERE idempotency_key = ? AND status = 'queued'").run(key);
    const row = this.get(key);
    if (!row) throw new MailroomError('not_found', `No outbox entry for key '${key}'.`);
    if (claimed.changes === 0) return row;
    const inbox = this.store.findInbox(row.inbox_id);
    const { raw } = this.db.prepare('SELECT raw FROM mail_outbox WHERE idempotency_key = ?').get(key) as { raw: Buffer };
    if (!inbox?.smtp) return this.settle(key, 'failed', 'This inbox has no SMTP account; add one in Settings → Mail accounts (#/settings/mail), then retry.');
    const smtp = inbox.smtp;
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password_sealed ? this.secrets.decrypt(smtp.password_sealed) : '' } } : {}),
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    });
    try {
      await transport.sendMail({ envelope: row.envelope, raw });
      this.settle(key, 'sent');
      try {
        const parsed = await parseRaw(raw, { now: this.clock.now, seen: true });
        const stored = this.store.db.transaction(() => this.store.insert(inbox, parsed, 'outbox', 'outbound'))();
        // A new message's thread exists only now.
        if (row.thread_id === NEW_THREAD) this.db.prepare('UPDATE mail_outbox SET thread_id = ? WHERE idempotency_key = ?').run(stored.thread_id, key);
      } catch (e) {
        this.log.warn('sent reply could not be added to its thread', { key, error: String(e) });
      }
      return this.get(key)!;
    } catch (e) {
      const err = e as Error & { responseCode?: number; command?: string; code?: string };
      const words = describeMailError(e, { protocol: 'SMTP', host: smtp.host, port: smtp.port });
      // Login, reachability and TLS failures in words; other server answers as they came.
      const plain = ['auth_failed', 'unreachable', 'host_not_found', 'tls_failed'].includes(words.code);
      const msg = plain ? words.message : `${err.message}${err.responseCode ? ` (SMTP ${err.responseCode})` : ''}`;
      // No SMTP answer after the message body went out: the server may have it. Never resend.
      if (!err.responseCode && /DATA|message/i.test(err.command ?? '') && err.code !== 'ECONNREFUSED') return this.settle(key, 'uncertain', `Delivery result unknown: ${msg}. Check the recipient or the Sent folder, then retry or mark sent on the Mail page.`);
      const permanent = err.responseCode !== undefined && err.responseCode >= 500;
      const attempts = this.get(key)!.attempts;
      if (permanent || attempts >= MAX_ATTEMPTS) return this.settle(key, 'failed', msg);
      const delay = Math.min(3600_000, 15_000 * 2 ** (attempts - 1));
      return this.settle(key, 'queued', msg, this.clock.now() + delay);
    } finally {
      transport.close();
    }
  }

  private settle(key: string, status: OutboxStatus, error?: string, nextAt?: number): OutboxRow {
    this.db
      .prepare('UPDATE mail_outbox SET status = ?, last_error = ?, next_attempt_at = coalesce(?, next_attempt_at), sent_at = CASE WHEN ? = \'sent\' THEN ? ELSE sent_at END WHERE idempotency_key = ?')
      .run(status, error ?? null, nextAt ? this.iso(nextAt) : null, status, this.iso(), key);
    const row = this.get(key)!;
    if (status === 'sent' && row.draft_id) this.db.prepare("UPDATE mail_drafts SET status = 'sent', updated_at = ? WHERE id = ?").run(this.iso(), row.draft_id);
    if (status !== 'sent') this.log.warn('outbox delivery not completed', { key, status, error });
    this.onChange(row);
    return row;
  }

  /** A person's decision on an 'uncertain' or 'failed' row: try again, or record it as sent. */
  resolve(key: string, action: 'retry' | 'mark_sent'): OutboxRow {
    const row = this.get(key);
    if (!row) throw new MailroomError('not_found', `No outbox entry for key '${key}'.`);
    if (row.status !== 'uncertain' && row.status !== 'failed') throw new MailroomError('conflict', `Outbox entry '${key}' is ${row.status}; only failed or uncertain entries can be retried or marked sent.`, {}, 409);
    if (action === 'mark_sent') return this.settle(key, 'sent');
    this.db.prepare("UPDATE mail_outbox SET status = 'queued', attempts = 0, next_attempt_at = ? WHERE idempotency_key = ?").run(this.iso(), key);
    void this.attempt(key);
    return this.get(key)!;
  }

  /** Due rows, oldest first. */
  private due(): string[] {
    return (this.db.prepare("SELECT idempotency_key FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= ? ORDER BY created_at LIMIT 20").all(this.iso()) as Array<{ idempotency_key: string }>).map(
      (r) => r.idempotency_key,
    );
  }

  async tick(): Promise<void> {
    for (const key of this.due()) {
      if (this.stopped) return;
      await this.attempt(key).catch((e) => this.log.error('outbox attempt failed', { key, error: String(e) }));
    }
  }

  start(intervalMs = 5_000): void {
    this.stopped = false;
    // Rows a crash left mid-SMTP: the server may have the message, so a person decides.
    const stale = this.db.prepare("UPDATE mail_outbox SET status = 'uncertain', last_error = 'Mailroom stopped during SMTP delivery; the message may have been sent. Check, then retry or mark sent.' WHERE status = 'sending'").run();
    if (stale.changes) this.log.warn('outbox rows interrupted during SMTP delivery', { count: stale.changes });
    void this.tick();
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.running.values()]);
  }
}

/** nodemailer's MIME composer builds the message (headers, encodings); we never write MIME by hand. */
async function buildRaw(mail: {
  from: string | { name: string; address: string };
  to: string[];
  cc?: string[];
  subject: string;
  text: string;
  messageId: string;
  inReplyTo?: string;
  references: string[];
  date: Date;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}): Promise<Buffer> {
  const t = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await t.sendMail({
    from: mail.from,
    to: mail.to,
    ...(mail.cc?.length ? { cc: mail.cc } : {}),
    ...(mail.attachments?.length ? { attachments: mail.attachments } : {}),
    subject: mail.subject,
    text: mail.text,
    messageId: mail.messageId,
    date: mail.date,
    ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo } : {}),
    ...(mail.references.length ? { references: mail.references } : {}),
  });
  return info.message as Buffer;
}

/** The forwarded message, quoted the way mail clients do. */
function forwardedBlock(m: MessageRow): string {
  const p = (x: { name?: string | null; email: string }) => (x.name ? `${x.name} <${x.email}>` : x.email);
  return [
    '---------- Forwarded message ----------',
    `From: ${m.from ? p(m.from) : 'unknown'}`,
    `Date: ${m.created_at}`,
    `Subject: ${m.subject}`,
    `To: ${m.to.map(p).join(', ')}`,
    ...(m.cc.length ? [`Cc: ${m.cc.map(p).join(', ')}`] : []),
    '',
    m.text.trim(),
  ].join('\n');
}

import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import { MailroomError, invalidArgument, present } from '../../kernel/errors';
import { isEmail, isReplySubject, type AttachmentInfo, type ParsedMessage, type Participant } from './parse';

export type ThreadStatus = 'open' | 'closed' | 'snoozed';

export interface InboxRow {
  id: string;
  address: string;
  name: string | null;
  labels: string[];
  status: 'active' | 'paused';
  imap: ImapSettings | null;
  smtp: SmtpSettings | null;
  created_at: string;
}

export interface ImapSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  /** Sealed with the platform SecretBox; never stored or logged in clear. */
  password_sealed: string;
  mailbox: string;
}

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  password_sealed?: string;
}

export interface ThreadRow {
  seq: number;
  id: string;
  inbox_id: string;
  subject: string;
  status: ThreadStatus;
  snooze_until: string | null;
  labels: string[];
  participants: Participant[];
  first_at: string;
  updated_at: string;
  triage: Record<string, unknown> | null;
}

export interface MessageRow {
  rowid: number;
  id: string;
  inbox_id: string;
  thread_id: string;
  internet_message_id: string | null;
  in_reply_to: string | null;
  refs: string[];
  direction: 'inbound' | 'outbound';
  from: Participant | null;
  to: Participant[];
  cc: Participant[];
  reply_to: Participant[];
  subject: string;
  text: string;
  html: string | null;
  remote_content: boolean;
  attachments: AttachmentInfo[];
  created_at: string;
  seen: boolean;
  source: string | null;
  triage: Record<string, unknown> | null;
}

/** How far apart a reply and its thread may be when only subject + participants link them. */
export const SUBJECT_WINDOW_MS = 21 * 24 * 3600_000;

/** A forward's subject ("FW:", "Fwd:", "WG:", "TR:"). */
const FORWARD_SUBJECT = /^\s*(fwd?|wg|tr|vb|rv)\s*:/i;

/** Mail providers whose users share a domain without sharing an organisation. */
const SHARED_DOMAINS = new Set(['gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'yahoo.com', 'icloud.com', 'me.com', 'aol.com', 'gmx.de', 'gmx.net', 'web.de', 'proton.me', 'protonmail.com', 'mail.com', 'yandex.ru', 'zoho.com', 'fastmail.com']);

/**
 * Whether a reply with no usable headers belongs with a thread of the same subject: it shares a
 * participant other than the person, or the person wrote it (forwarding or answering mail they
 * received: "FW: FINAL REMINDER …" to a colleague), or a colleague did (the person's own
 * organisation's domain, not a shared mail provider's) — colleagues see the same mail.
 */
export function sameCircle(writer: string | undefined, people: Set<string>, theirs: string[], own: string): boolean {
  if (theirs.some((e) => people.has(e))) return true;
  const w = (writer ?? '').toLowerCase();
  if (!w) return false;
  if (w === own) return true;
  const domain = own.split('@')[1] ?? '';
  return !!domain && !SHARED_DOMAINS.has(domain) && w.split('@')[1] === domain;
}

const json = <T>(s: string | null | undefined, fallback: T): T => (s ? (JSON.parse(s) as T) : fallback);

/** A thread's participant list grows by one message's people: first seen first, one per address (any case), a named entry winning over a bare address. */
function addParticipants(seen: Map<string, Participant>, people: Array<Participant | null | undefined>): Map<string, Participant> {
  for (const p of people) {
    if (!p) continue;
    const k = p.email.toLowerCase();
    if (!seen.has(k) || (!seen.get(k)!.name && p.name)) seen.set(k, p);
  }
  return seen;
}

/** Stable ids: the same message imported into the same inbox always gets the same id. */
export const messageIdFor = (inboxId: string, dedupKey: string) => 'm_' + crypto.createHash('sha256').update(inboxId + '\0' + dedupKey).digest('hex').slice(0, 20);
// Random ids drawn from a pool filled 4 KB at a time: one randomBytes call per thread cost
// ~20 µs of an import's main thread (a system call each), more than the thread's INSERT.
let idPool = Buffer.alloc(0);
let idAt = 0;
const newId = (prefix: string) => {
  if (idAt + 10 > idPool.length) {
    idPool = crypto.randomBytes(4096);
    idAt = 0;
  }
  idAt += 10;
  return prefix + idPool.toString('hex', idAt - 10, idAt);
};

interface RawThread {
  seq: number;
  id: string;
  inbox_id: string;
  subject: string;
  status: ThreadStatus;
  snooze_until: string | null;
  labels: string;
  participants: string;
  first_at: string;
  updated_at: string;
  triage: string | null;
}

interface RawMessage {
  rowid: number;
  id: string;
  inbox_id: string;
  thread_id: string;
  internet_message_id: string | null;
  in_reply_to: string | null;
  refs: string;
  direction: 'inbound' | 'outbound';
  from_addr: string | null;
  to_addrs: string;
  cc_addrs: string;
  reply_to: string;
  subject: string;
  text: string;
  html: string | null;
  remote_content: number;
  attachments: string;
  created_at: string;
  seen: number;
  source: string | null;
  triage: string | null;
}

export interface InsertResult {
  id: string;
  thread_id: string;
  created: boolean;
}

/** The mail tables: inboxes, threads (with threading), messages, FTS rows. Synchronous SQLite. */
export class MailStore {
  constructor(
    readonly db: Database.Database,
    private readonly now: () => number,
  ) {}

  private iso = () => new Date(this.now()).toISOString();
  private readonly stmts = new Map<string, Database.Statement>();
  /** A prepared statement, cached by its SQL (imports run the same few statements 100,000 times). */
  private st(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  // ---------- inboxes ----------

  private inboxFrom(r: Record<string, unknown>): InboxRow {
    return {
      id: r.id as string,
      address: r.address as string,
      name: (r.name as string | null) ?? null,
      labels: json<string[]>(r.labels as string, []),
      status: r.status as 'active' | 'paused',
      imap: json<ImapSettings | null>(r.imap as string | null, null),
      smtp: json<SmtpSettings | null>(r.smtp as string | null, null),
      created_at: r.created_at as string,
    };
  }

  listInboxes(): InboxRow[] {
    return (this.db.prepare('SELECT * FROM mail_inboxes ORDER BY created_at, id').all() as Record<string, unknown>[]).map((r) => this.inboxFrom(r));
  }

  findInbox(idOrAddress: string): InboxRow | undefined {
    const r = this.db.prepare('SELECT * FROM mail_inboxes WHERE id = ? OR lower(address) = lower(?) ORDER BY id = ? DESC LIMIT 1').get(idOrAddress, idOrAddress, idOrAddress) as
      | Record<string, unknown>
      | undefined;
    return r ? this.inboxFrom(r) : undefined;
  }

  inbox(idOrAddress: string): InboxRow {
    const ib = this.findInbox(idOrAddress);
    if (!ib) {
      throw new MailroomError('inbox_not_found', `No inbox '${idOrAddress}'. List inboxes with resources/list (email://inboxes/…) or create one on the Mail page / \`mailroom mail inbox add ADDRESS\`.`, { inbox_id: idOrAddress }, 404);
    }
    return ib;
  }

  createInbox(input: { address: string; id?: string; name?: string; labels?: string[] }): InboxRow {
    const address = input.address.trim();
    if (!isEmail(address)) throw invalidArgument(`'${input.address}' is not an email address; an inbox needs one (e.g. support@example.com).`);
    if (input.id !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(input.id)) {
      throw invalidArgument(`Inbox id '${input.id}' may only use letters, digits, '_', '.', '-' (1–64 characters).`);
    }
    const existing = this.findInbox(input.id ?? address);
    if (existing) throw new MailroomError('conflict', `An inbox '${existing.id}' (${existing.address}) already exists.`, { inbox_id: existing.id }, 409);
    const id = input.id ?? 'ib_' + crypto.randomBytes(6).toString('hex');
    this.db
      .prepare('INSERT INTO mail_inboxes (id, address, name, labels, status, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(id, address, input.name ?? null, JSON.stringify(input.labels ?? []), 'active', this.iso());
    return this.inbox(id);
  }

  updateInbox(id: string, patch: { name?: string | null; labels?: string[]; status?: 'active' | 'paused'; imap?: ImapSettings | null; smtp?: SmtpSettings | null }): InboxRow {
    const cur = this.inbox(id);
    const next = { ...cur, ...patch };
    this.db
      .prepare('UPDATE mail_inboxes SET name = ?, labels = ?, status = ?, imap = ?, smtp = ? WHERE id = ?')
      .run(next.name, JSON.stringify(next.labels), next.status, next.imap ? JSON.stringify(next.imap) : null, next.smtp ? JSON.stringify(next.smtp) : null, cur.id);
    return this.inbox(cur.id);
  }

  deleteInbox(id: string): void {
    const ib = this.inbox(id);
    this.db.transaction(() => {
      const rows = this.db.prepare<unknown[], { rowid: number }>('SELECT rowid FROM mail_messages WHERE inbox_id = ?').all(ib.id);
      const del = this.db.prepare('DELETE FROM mail_fts WHERE rowid = ?');
      for (const r of rows) del.run(r.rowid);
      this.db.prepare('DELETE FROM mail_outbox WHERE inbox_id = ?').run(ib.id);
      this.db.prepare('DELETE FROM mail_messages WHERE inbox_id = ?').run(ib.id);
      this.db.prepare('DELETE FROM mail_refs WHERE inbox_id = ?').run(ib.id);
      this.db.prepare('DELETE FROM mail_inboxes WHERE id = ?').run(ib.id);
    })();
  }

  unreadCounts(): Record<string, number> {
    const rows = this.db.prepare<unknown[], { inbox_id: string; n: number }>('SELECT inbox_id, count(*) AS n FROM mail_messages WHERE seen = 0 AND direction = \'inbound\' GROUP BY inbox_id').all();
    return Object.fromEntries(rows.map((r) => [r.inbox_id, r.n]));
  }

  // ---------- threads ----------

  private threadFrom(r: RawThread): ThreadRow {
    return {
      ...r,
      labels: json<string[]>(r.labels, []),
      participants: json<Participant[]>(r.participants, []),
      triage: json<Record<string, unknown> | null>(r.triage, null),
    };
  }

  findThread(id: string): ThreadRow | undefined {
    const r = this.st('SELECT * FROM mail_threads WHERE id = ?').get(id) as RawThread | undefined;
    return r ? this.threadFrom(r) : undefined;
  }

  thread(id: string): ThreadRow {
    const t = this.findThread(id);
    if (!t) throw new MailroomError('thread_not_found', `No thread '${id}'. Thread ids come from list_threads or search_inbox.`, { thread_id: id }, 404);
    return t;
  }

  /** Status as the user sees it: a snooze that has run out reads as open again. */
  effectiveStatus(t: ThreadRow): ThreadStatus {
    if (t.status === 'snoozed' && t.snooze_until && Date.parse(t.snooze_until) <= this.now()) return 'open';
    return t.status;
  }

  threadsPage(q: { inboxId: string; status?: ThreadStatus; label?: string; updatedAfter?: string; beforeSeq?: number; highWater: number; limit: number }): ThreadRow[] {
    const where = ['inbox_id = @inbox', 'seq <= @hw'];
    if (q.beforeSeq !== undefined) where.push('seq < @before');
    if (q.updatedAfter) where.push('updated_at > @ua');
    if (q.label) where.push('EXISTS (SELECT 1 FROM json_each(mail_threads.labels) WHERE value = @label)');
    const nowIso = this.iso();
    if (q.status === 'open') where.push("(status = 'open' OR (status = 'snoozed' AND snooze_until IS NOT NULL AND snooze_until <= @now))");
    if (q.status === 'snoozed') where.push("status = 'snoozed' AND (snooze_until IS NULL OR snooze_until > @now)");
    if (q.status === 'closed') where.push("status = 'closed'");
    const rows = this.db
      .prepare(`SELECT * FROM mail_threads WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT @limit`)
      .all({ inbox: q.inboxId, hw: q.highWater, before: q.beforeSeq ?? null, ua: normalizeTs(q.updatedAfter), label: q.label ?? null, now: nowIso, limit: q.limit }) as RawThread[];
    return rows.map((r) => this.threadFrom(r));
  }

  maxThreadSeq(): number {
    return (this.db.prepare('SELECT coalesce(max(seq), 0) AS s FROM mail_threads').get() as { s: number }).s;
  }

  /**
   * Most recently active first, one page at a time (keyset on updated_at, seq: no offsets, so a
   * page costs the same deep into 100k threads), with each page's message and unread counts.
   */
  threadsByRecentPage(q: { inboxId: string; status?: ThreadStatus; after?: { u: string; s: number }; limit: number }): Array<ThreadRow & { messages: number; unread: number }> {
    const where = ['inbox_id = @inbox'];
    if (q.after) where.push('(updated_at < @u OR (updated_at = @u AND seq < @s))');
    if (q.status === 'open') where.push("(status = 'open' OR (status = 'snoozed' AND snooze_until IS NOT NULL AND snooze_until <= @now))");
    if (q.status === 'snoozed') where.push("status = 'snoozed' AND (snooze_until IS NULL OR snooze_until > @now)");
    if (q.status === 'closed') where.push("status = 'closed'");
    const rows = this.db
      .prepare(`SELECT * FROM mail_threads WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, seq DESC LIMIT @limit`)
      .all({ inbox: q.inboxId, u: q.after?.u ?? null, s: q.after?.s ?? null, now: this.iso(), limit: q.limit }) as RawThread[];
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const counts = new Map(
      (
        this.db
          .prepare<unknown[], { thread_id: string; n: number; u: number }>(`SELECT thread_id, count(*) AS n, sum(seen = 0 AND direction = 'inbound') AS u FROM mail_messages WHERE thread_id IN (${ids.map(() => '?').join(',')}) GROUP BY thread_id`)
          .all(...ids)
      ).map((r) => [r.thread_id, r]),
    );
    return rows.map((r) => ({ ...this.threadFrom(r), messages: counts.get(r.id)?.n ?? 0, unread: counts.get(r.id)?.u ?? 0 }));
  }

  threadsByRecent(inboxId: string, limit: number, opts: { status?: ThreadStatus; label?: string } = {}): ThreadRow[] {
    return this.threadsPage({ inboxId, highWater: Number.MAX_SAFE_INTEGER, limit: 100_000, status: opts.status, label: opts.label })
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
      .slice(0, limit);
  }

  setThreadStatus(id: string, status: ThreadStatus, snoozeUntil?: string): ThreadRow {
    const t = this.thread(id);
    if (status === 'snoozed' && (!snoozeUntil || Number.isNaN(Date.parse(snoozeUntil)))) {
      throw invalidArgument('Snoozing needs snooze_until, an RFC 3339 time (e.g. 2030-01-01T09:00:00Z).');
    }
    this.db.prepare('UPDATE mail_threads SET status = ?, snooze_until = ? WHERE id = ?').run(status, status === 'snoozed' ? new Date(snoozeUntil!).toISOString() : null, t.id);
    return this.thread(id);
  }

  setThreadLabels(id: string, labels: string[]): ThreadRow {
    const t = this.thread(id);
    const clean = [...new Set(labels.map((l) => l.trim()).filter(Boolean))];
    this.db.prepare('UPDATE mail_threads SET labels = ? WHERE id = ?').run(JSON.stringify(clean), t.id);
    return this.thread(id);
  }

  setThreadTriage(id: string, triage: Record<string, unknown>): void {
    this.db.prepare('UPDATE mail_threads SET triage = ? WHERE id = ?').run(JSON.stringify(triage), id);
  }

  unreadByThread(inboxId: string): Record<string, number> {
    const rows = this.db.prepare("SELECT thread_id, count(*) AS n FROM mail_messages WHERE inbox_id = ? AND seen = 0 AND direction = 'inbound' GROUP BY thread_id").all(inboxId) as Array<{
      thread_id: string;
      n: number;
    }>;
    return Object.fromEntries(rows.map((r) => [r.thread_id, r.n]));
  }

  markThreadSeen(id: string): void {
    this.db.prepare('UPDATE mail_messages SET seen = 1 WHERE thread_id = ?').run(id);
  }

  // ---------- messages ----------

  private messageFrom(r: RawMessage): MessageRow {
    return {
      rowid: r.rowid,
      id: r.id,
      inbox_id: r.inbox_id,
      thread_id: r.thread_id,
      internet_message_id: r.internet_message_id,
      in_reply_to: r.in_reply_to,
      refs: json<string[]>(r.refs, []),
      direction: r.direction,
      from: json<Participant | null>(r.from_addr, null),
      to: json<Participant[]>(r.to_addrs, []),
      cc: json<Participant[]>(r.cc_addrs, []),
      reply_to: json<Participant[]>(r.reply_to, []),
      subject: r.subject,
      text: r.text,
      html: r.html,
      remote_content: r.remote_content === 1,
      attachments: json<AttachmentInfo[]>(r.attachments, []),
      created_at: r.created_at,
      seen: r.seen === 1,
      source: r.source,
      triage: json<Record<string, unknown> | null>(r.triage, null),
    };
  }

  private static readonly MSG_COLS =
    'rowid, id, inbox_id, thread_id, internet_message_id, in_reply_to, refs, direction, from_addr, to_addrs, cc_addrs, reply_to, subject, text, html, remote_content, attachments, created_at, seen, source, triage';

  findMessage(id: string): MessageRow | undefined {
    const r = this.db.prepare<unknown[], RawMessage>(`SELECT ${MailStore.MSG_COLS} FROM mail_messages WHERE id = ?`).get(id);
    return r ? this.messageFrom(r) : undefined;
  }

  message(id: string): MessageRow {
    const m = this.findMessage(id);
    if (!m) throw new MailroomError('message_not_found', `No message '${id}'. Message ids come from get_thread or search_inbox.`, { message_id: id }, 404);
    return m;
  }

  messageRaw(id: string): Buffer {
    const r = this.db.prepare<unknown[], { raw: Buffer }>('SELECT raw FROM mail_messages WHERE id = ?').get(id);
    if (!r) throw new MailroomError('message_not_found', `No message '${id}'.`, { message_id: id }, 404);
    return r.raw;
  }

  threadMessages(threadId: string): MessageRow[] {
    return (this.db.prepare(`SELECT ${MailStore.MSG_COLS} FROM mail_messages WHERE thread_id = ? ORDER BY created_at, rowid`).all(threadId) as RawMessage[]).map((r) => this.messageFrom(r));
  }

  messagesByRowids(rowids: number[]): Map<number, MessageRow> {
    if (rowids.length === 0) return new Map();
    const rows = this.db.prepare<unknown[], RawMessage>(`SELECT ${MailStore.MSG_COLS} FROM mail_messages WHERE rowid IN (${rowids.map(() => '?').join(',')})`).all(...rowids);
    return new Map(rows.map((r) => [r.rowid, this.messageFrom(r)]));
  }

  setMessageTriage(id: string, triage: Record<string, unknown>): void {
    this.db.prepare('UPDATE mail_messages SET triage = ? WHERE id = ?').run(JSON.stringify(triage), id);
  }

  counts(): { inboxes: number; threads: number; messages: number } {
    const one = (sql: string) => (this.db.prepare(sql).get() as { n: number }).n;
    return {
      inboxes: one('SELECT count(*) AS n FROM mail_inboxes'),
      threads: one('SELECT count(*) AS n FROM mail_threads'),
      messages: one('SELECT count(*) AS n FROM mail_messages'),
    };
  }

  /**
   * Stores one parsed message and threads it. Idempotent: a message already in the inbox (same
   * Message-ID, or the same bytes when it has none) is left alone and reported as not created.
   * Call inside a transaction when importing many.
   */
  insert(inbox: InboxRow, m: ParsedMessage, source: string | null, direction?: 'inbound' | 'outbound'): InsertResult {
    const id = messageIdFor(inbox.id, m.dedupKey);
    const existing = this.st('SELECT id, thread_id FROM mail_messages WHERE inbox_id = ? AND dedup_key = ?').get(inbox.id, m.dedupKey) as
      | { id: string; thread_id: string }
      | undefined;
    if (existing) return { id: existing.id, thread_id: existing.thread_id, created: false };

    const dir = direction ?? (m.from && m.from.email.toLowerCase() === inbox.address.toLowerCase() ? 'outbound' : 'inbound');
    const { id: threadId, created: newThread } = this.resolveThread(inbox.id, m, inbox.address);
    const r = this.st(
        `INSERT INTO mail_messages (id, inbox_id, thread_id, dedup_key, internet_message_id, in_reply_to, refs, direction, from_addr, to_addrs, cc_addrs, reply_to,
           subject, text, html, remote_content, attachments, raw, created_at, imported_at, seen, source)
         VALUES (@id, @inbox, @thread, @dedup, @mid, @irt, @refs, @dir, @from, @to, @cc, @rt, @subject, @text, @html, @remote, @att, @raw, @created, @imported, @seen, @source)`,
      )
      .run({
        id,
        inbox: inbox.id,
        thread: threadId,
        dedup: m.dedupKey,
        mid: m.internetMessageId ?? null,
        irt: m.inReplyTo ?? null,
        refs: JSON.stringify(m.references),
        dir,
        from: m.from ? JSON.stringify(m.from) : null,
        to: JSON.stringify(m.to),
        cc: JSON.stringify(m.cc),
        rt: JSON.stringify(m.replyTo),
        subject: m.subject,
        text: m.text,
        html: m.html ?? null,
        remote: m.remoteContent ? 1 : 0,
        att: JSON.stringify(m.attachments),
        raw: m.raw,
        created: m.createdAt,
        imported: this.iso(),
        seen: m.seen || dir === 'outbound' ? 1 : 0,
        source,
      });
    const rowid = Number(r.lastInsertRowid);
    const linkRefs = new Set([...(m.inReplyTo ? [m.inReplyTo] : []), ...m.references]);
    const addRef = this.st('INSERT OR IGNORE INTO mail_refs (inbox_id, ref, message_id) VALUES (?, ?, ?)');
    for (const ref of linkRefs) addRef.run(inbox.id, ref, id);
    const people = [m.from, ...m.to, ...m.cc].filter((p): p is Participant => !!p).map((p) => (p.name ? `${p.name} ${p.email}` : p.email));
    this.st('INSERT INTO mail_fts (rowid, subject, participants, body) VALUES (?, ?, ?, ?)').run(rowid, m.subject, people.join(' '), m.text.slice(0, 200_000));
    // A thread made for this message already has its subject, participants and time span.
    if (!newThread) this.extendThread(threadId, m, rowid);
    return { id, thread_id: threadId, created: true };
  }

  /**
   * Threading: Message-ID / In-Reply-To / References first (both directions, so a parent that
   * arrives after its replies joins them, and a message linking two threads merges them); then,
   * for replies from clients that drop those headers, the same normalised subject with a shared
   * participant within SUBJECT_WINDOW_MS.
   */
  private resolveThread(inboxId: string, m: ParsedMessage, ownAddress: string): { id: string; created: boolean } {
    const linked = new Set<string>();
    const refs = [...new Set([...(m.inReplyTo ? [m.inReplyTo] : []), ...m.references])];
    if (refs.length > 0) {
      const rows = this.st(`SELECT DISTINCT thread_id FROM mail_messages WHERE inbox_id = ? AND internet_message_id IN (${refs.map(() => '?').join(',')})`)
        .all(inboxId, ...refs) as Array<{ thread_id: string }>;
      rows.forEach((r) => linked.add(r.thread_id));
    }
    // Messages that name me as a parent, or that share a (possibly missing) ancestor with me.
    const mine = [...(m.internetMessageId ? [m.internetMessageId] : []), ...refs];
    if (mine.length > 0) {
      const rows = this.st(`SELECT DISTINCT mm.thread_id FROM mail_refs r JOIN mail_messages mm ON mm.id = r.message_id WHERE r.inbox_id = ? AND r.ref IN (${mine.map(() => '?').join(',')})`)
        .all(inboxId, ...mine) as Array<{ thread_id: string }>;
      rows.forEach((r) => linked.add(r.thread_id));
    }
    if (linked.size > 0) {
      const ordered = (this.st(`SELECT id FROM mail_threads WHERE id IN (${[...linked].map(() => '?').join(',')}) ORDER BY seq`).all(...linked) as Array<{ id: string }>).map((r) => r.id);
      const [first, ...others] = ordered;
      const target = present(first, 'the oldest linked thread'); // linked holds ids of existing threads
      for (const o of others) this.mergeThread(o, target);
      return { id: target, created: false };
    }
    // (the person's own forward of mail they received belongs with it too)
    const ownForward = FORWARD_SUBJECT.test(m.subject) && m.from?.email.toLowerCase() === ownAddress.toLowerCase();
    if (m.normSubject && (isReplySubject(m.subject) || refs.length > 0 || ownForward)) {
      const t = Date.parse(m.createdAt);
      const cands = this.st('SELECT id, participants, first_at, updated_at FROM mail_threads WHERE inbox_id = ? AND norm_subject = ? ORDER BY updated_at DESC')
        .all(inboxId, m.normSubject) as Array<{ id: string; participants: string; first_at: string; updated_at: string }>;
      // The inbox's own address is in every thread, so it never counts as a shared participant.
      const own = ownAddress.toLowerCase();
      const people = new Set([m.from, ...m.to, ...m.cc].filter((p): p is Participant => !!p).map((p) => p.email.toLowerCase()).filter((e) => e !== own));
      for (const c of cands) {
        const inWindow = t >= Date.parse(c.first_at) - SUBJECT_WINDOW_MS && t <= Date.parse(c.updated_at) + SUBJECT_WINDOW_MS;
        const theirs = json<Participant[]>(c.participants, []).map((p) => p.email.toLowerCase());
        if (inWindow && sameCircle(m.from?.email, people, theirs, own)) return { id: c.id, created: false };
      }
    }
    // A new thread starts as refreshThread would leave it with this one message: its subject,
    // its people, its time (so the insert needs no second pass over the thread).
    const id = newId('t_');
    const participants = JSON.stringify([...addParticipants(new Map(), [m.from, ...m.to, ...m.cc]).values()]);
    this.st('INSERT INTO mail_threads (id, inbox_id, subject, norm_subject, participants, first_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, inboxId, m.subject, m.normSubject, participants, m.createdAt, m.createdAt);
    return { id, created: true };
  }

  /**
   * The subject rule of resolveThread, applied after the fact: a thread among `threadIds` whose
   * first message is a reply ("Re: …") joins an earlier thread with the same normalised subject
   * and a shared participant within SUBJECT_WINDOW_MS. For imports whose replies were stored
   * before their parent. Returns how many threads merged.
   */
  rethreadBySubject(inbox: InboxRow, threadIds: Iterable<string>): number {
    const own = inbox.address.toLowerCase();
    const subjects = new Set<string>();
    for (const id of threadIds) {
      const r = this.st('SELECT norm_subject FROM mail_threads WHERE id = ?').get(id) as { norm_subject: string | null } | undefined;
      if (r?.norm_subject) subjects.add(r.norm_subject);
    }
    let merged = 0;
    for (const subject of subjects) {
      const ts = this.st('SELECT id, first_at, updated_at, participants FROM mail_threads WHERE inbox_id = ? AND norm_subject = ? ORDER BY first_at, seq').all(inbox.id, subject) as Array<{
        id: string;
        first_at: string;
        updated_at: string;
        participants: string;
      }>;
      if (ts.length < 2) continue;
      const alive = [...ts];
      for (let i = 1; i < alive.length; i++) {
        const t = present(alive[i], 'a thread of the subject group'); // i < alive.length
        const first = this.st('SELECT subject, in_reply_to, refs, from_addr FROM mail_messages WHERE thread_id = ? ORDER BY created_at, rowid LIMIT 1').get(t.id) as { subject: string; in_reply_to: string | null; refs: string; from_addr: string | null } | undefined;
        const ownForward = !!first && FORWARD_SUBJECT.test(first.subject) && json<Participant | null>(first.from_addr, null)?.email.toLowerCase() === own;
        if (!first || !(isReplySubject(first.subject) || first.in_reply_to || first.refs !== '[]' || ownForward)) continue;
        const at = Date.parse(t.first_at);
        const people = new Set(json<Participant[]>(t.participants, []).map((p) => p.email.toLowerCase()).filter((e) => e !== own));
        for (let j = i - 1; j >= 0; j--) {
          const e = present(alive[j], 'an earlier thread of the subject group'); // 0 <= j < i
          const inWindow = at >= Date.parse(e.first_at) - SUBJECT_WINDOW_MS && at <= Date.parse(e.updated_at) + SUBJECT_WINDOW_MS;
          const writer = json<Participant | null>(first.from_addr, null)?.email;
          if (inWindow && sameCircle(writer, people, json<Participant[]>(e.participants, []).map((p) => p.email.toLowerCase()), own)) {
            this.mergeThread(t.id, e.id);
            const fresh = this.st('SELECT first_at, updated_at, participants FROM mail_threads WHERE id = ?').get(e.id) as { first_at: string; updated_at: string; participants: string };
            Object.assign(e, fresh);
            alive.splice(i, 1);
            i--;
            merged++;
            break;
          }
        }
      }
    }
    return merged;
  }

  private mergeThread(from: string, into: string): void {
    const a = this.thread(from);
    const b = this.thread(into);
    this.st('UPDATE mail_messages SET thread_id = ? WHERE thread_id = ?').run(into, from);
    this.st('UPDATE mail_drafts SET thread_id = ? WHERE thread_id = ?').run(into, from);
    this.st('UPDATE mail_outbox SET thread_id = ? WHERE thread_id = ?').run(into, from);
    const labels = [...new Set([...b.labels, ...a.labels])];
    this.st('UPDATE mail_threads SET labels = ? WHERE id = ?').run(JSON.stringify(labels), into);
    this.st('DELETE FROM mail_threads WHERE id = ?').run(from);
    this.refreshThread(into);
  }

  /**
   * refreshThread for the usual case of an import or a sync: the new message is the thread's
   * latest. Then the subject and first time stay, the new participants join the end of the list
   * (same rule and order as a full recompute) and the time span ends at the new message, all
   * without re-reading the thread. Any other case recomputes in full.
   */
  private extendThread(id: string, m: ParsedMessage, rowid: number): void {
    const prev = this.st('SELECT max(created_at) AS last FROM mail_messages WHERE thread_id = ? AND rowid <> ?').get(id, rowid) as { last: string | null };
    const t = this.st('SELECT participants FROM mail_threads WHERE id = ?').get(id) as { participants: string } | undefined;
    if (!t || prev.last === null || m.createdAt < prev.last) return this.refreshThread(id);
    const seen = addParticipants(new Map(), [...json<Participant[]>(t.participants, []), m.from, ...m.to, ...m.cc]);
    this.st('UPDATE mail_threads SET participants = ?, updated_at = ? WHERE id = ?').run(JSON.stringify([...seen.values()]), m.createdAt, id);
  }

  /** Recomputes a thread's subject, participants and time span from its messages. */
  refreshThread(id: string): void {
    const msgs = this.st('SELECT subject, from_addr, to_addrs, cc_addrs, created_at FROM mail_messages WHERE thread_id = ? ORDER BY created_at, rowid').all(id) as Array<{
      subject: string;
      from_addr: string | null;
      to_addrs: string;
      cc_addrs: string;
      created_at: string;
    }>;
    const [first] = msgs;
    if (!first) return;
    const seen = new Map<string, Participant>();
    for (const m of msgs) addParticipants(seen, [json<Participant | null>(m.from_addr, null), ...json<Participant[]>(m.to_addrs, []), ...json<Participant[]>(m.cc_addrs, [])]);
    const times = msgs.map((m) => m.created_at).sort();
    this.st('UPDATE mail_threads SET subject = ?, participants = ?, first_at = ?, updated_at = ? WHERE id = ?')
      .run(first.subject, JSON.stringify([...seen.values()]), times[0], times[times.length - 1], id);
  }
}

/** RFC 3339 with any offset → the UTC ISO form stored in the DB, so string comparison orders times. */
export function normalizeTs(ts: string | undefined): string | null {
  if (!ts) return null;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

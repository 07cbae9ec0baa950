import crypto from 'node:crypto';
import type { JsonObject } from '../../kernel/types';
import { MailroomError } from '../../kernel/errors';
import type { MailPart } from './part';
import type { Participant } from './parse';
import { searchMessages } from './search';
import type { InboxRow, MessageRow, ThreadRow, ThreadStatus } from './store';
import { summarizeThread } from './summary';

interface CursorState {
  v: 1;
  i: string;
  hw: number;
  b: number;
  f: string;
}

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** Reading mail in the contract's shapes: inboxes, threads and messages, paged lists, search, summaries. */
export class MailViews {
  constructor(private readonly p: MailPart) {}

  inboxDto(ib: InboxRow): JsonObject {
    return { id: ib.id, address: ib.address, labels: ib.labels, status: ib.status };
  }

  threadDto(t: ThreadRow): JsonObject {
    return {
      id: t.id,
      inbox_id: t.inbox_id,
      subject: t.subject,
      status: this.p.store.effectiveStatus(t),
      labels: t.labels,
      participants: t.participants,
      updated_at: t.updated_at,
    };
  }

  messageDto(m: MessageRow): JsonObject {
    const p = (x: Participant) => (x.name ? { name: x.name, email: x.email } : { email: x.email });
    return {
      id: m.id,
      thread_id: m.thread_id,
      ...(m.internet_message_id ? { internet_message_id: m.internet_message_id } : {}),
      direction: m.direction,
      ...(m.from ? { from: p(m.from) } : {}),
      to: m.to.map(p),
      cc: m.cc.map(p),
      subject: m.subject,
      text: m.text,
      ...(m.html ? { html: m.html } : {}),
      created_at: m.created_at,
    };
  }

  private encodeCursor(c: CursorState) {
    return b64(c);
  }

  private decodeCursor(cursor: string, inboxId: string, filterKey: string): CursorState {
    let c: CursorState;
    try {
      c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorState;
    } catch {
      throw new MailroomError('invalid_cursor', 'That cursor is not one list_threads returned. Start again without a cursor.', { cursor });
    }
    if (!c || c.v !== 1 || typeof c.hw !== 'number' || typeof c.b !== 'number' || typeof c.i !== 'string') {
      throw new MailroomError('invalid_cursor', 'That cursor is not one list_threads returned. Start again without a cursor.', { cursor });
    }
    if (c.i !== inboxId || c.f !== filterKey) {
      throw new MailroomError('invalid_cursor', 'That cursor belongs to another inbox or other filters. Pass the same inbox_id, status, label and updated_after as the first page, or start again without a cursor.', { cursor });
    }
    return c;
  }

  /**
   * Pages newest-created first. The first page fixes a high-water mark (the newest thread seq), so
   * threads created while a client pages never shift later pages: no duplicates, no gaps.
   */
  listThreads(a: { inbox_id: string; status?: ThreadStatus; label?: string; updated_after?: string; limit?: number; cursor?: string }): JsonObject {
    const ib = this.p.store.inbox(a.inbox_id);
    const limit = a.limit ?? 50;
    const filterKey = sha(JSON.stringify([a.status ?? null, a.label ?? null, a.updated_after ?? null])).slice(0, 12);
    const c = a.cursor ? this.decodeCursor(a.cursor, ib.id, filterKey) : { v: 1 as const, i: ib.id, hw: this.p.store.maxThreadSeq(), b: Number.MAX_SAFE_INTEGER, f: filterKey };
    const rows = this.p.store.threadsPage({ inboxId: ib.id, status: a.status, label: a.label, updatedAfter: a.updated_after, beforeSeq: c.b, highWater: c.hw, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const out: JsonObject = { threads: page.map((t) => this.threadDto(t)) };
    const lastOnPage = page.at(-1);
    if (rows.length > limit && lastOnPage) out.next_cursor = this.encodeCursor({ ...c, b: lastOnPage.seq });
    return out;
  }

  getThread(a: { thread_id: string; include_messages?: boolean }): JsonObject {
    const t = this.p.store.thread(a.thread_id);
    const out: JsonObject = { thread: this.threadDto(t) };
    if (a.include_messages !== false) out.messages = this.p.store.threadMessages(t.id).map((m) => this.messageDto(m));
    return out;
  }

  searchInbox(a: { inbox_id: string; query: string; top_k?: number; time_range?: { start?: string; end?: string } }): JsonObject {
    const ib = this.p.store.inbox(a.inbox_id);
    const hits = searchMessages(this.p.store.db, { inboxId: ib.id, query: a.query, topK: a.top_k ?? 10, start: a.time_range?.start, end: a.time_range?.end });
    return { results: hits.map((h) => ({ message_id: h.message_id, thread_id: h.thread_id, score: Math.round(h.score * 1e4) / 1e4, snippet: h.snippet })) };
  }

  summary(threadId: string): JsonObject {
    const t = this.p.store.thread(threadId);
    return { thread_id: t.id, summary: summarizeThread(t, this.p.store.threadMessages(t.id)), updated_at: t.updated_at };
  }
}

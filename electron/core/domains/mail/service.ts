import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { CoreContext, JsonObject, SampleRequest } from '../../kernel/types';
import { MailroomError, invalidArgument } from '../../kernel/errors';
import type { Nlp } from '../nlp';
import { MailConfigFiles } from './config';
import type { InboxSaveDep, RouterDep } from './deps';
import { generateDraft, needsApproval, policyRiskFlags, replyRecipients, replyTarget } from './draft';
import { extractToSchema, type ExtractResult } from './extract';
import { messageFacts } from './facts';
import { ImapSync, type ImapState } from './imap';
import { testImap, testSmtp } from './accounts';
import type { MailTestBody, MailTestResult } from '../../../../shared/settings';
import { readSource, readUpload, readUploadFile, type RawItem } from './importers';
import { ingest, type ImportReport } from './ingest';
import { Outbox, type OutboxRow } from './outbox';
import { ContractValidator } from './schemas';
import { searchMessages } from './search';
import { MailStore, type ImapSettings, type InboxRow, type MessageRow, type SmtpSettings, type ThreadRow, type ThreadStatus } from './store';
import { summarizeThread } from './summary';
import { triage, type LabelledExample, type TriageResult, type Urgency } from './triage';
import { ConceptTable } from './semantic';
import { latestText } from './text';
import { llmExtract, llmTriage, structuredLlm, type StructuredLlm } from './llm';
import type { Participant } from './parse';

export interface MailDeps {
  nlp?: Nlp;
  inbox?: InboxSaveDep;
  router?: RouterDep;
}

export interface DraftRow {
  id: string;
  thread_id: string;
  policy_id: string;
  goal: string;
  body: string;
  risk_flags: string[];
  cited_message_ids: string[];
  needs_human_approval: boolean;
  approved_at: string | null;
  generator: string;
  status: 'draft' | 'approved' | 'sent' | 'discarded';
  created_at: string;
  updated_at: string;
}

interface CursorState {
  v: 1;
  i: string;
  hw: number;
  b: number;
  f: string;
}

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** Imports touching at most this many threads answer after their triage; bigger ones triage in the background. */
const ARRIVAL_TRIAGE_INLINE = 200;
const ARRIVAL_TRIAGE_BATCH = 50;
/** Background triage hands the event loop back this often (ms), so searches and pages are not queued behind it. */
const ARRIVAL_TRIAGE_SLICE_MS = 8;

/** Largest upload the import route accepts (bigger mailboxes import from disk with the CLI). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

const shuttingDown = () =>
  new MailroomError('shutting_down', 'Mailroom is stopping; the reply stays in the outbox and is sent at the next start. Check the outbox on the Mail page.', {}, 503);

/** Everything mail does, shared by MCP tools, REST routes, hub and CLI. */
export class MailService {
  readonly store: MailStore;
  readonly contracts = new ContractValidator();
  readonly files: MailConfigFiles;
  readonly outbox: Outbox;
  private readonly syncs = new Map<string, ImapSync>();
  private started = false;
  /** Aborted by stop(): every wait the service starts (sendReply's reply window) ends with it. */
  private lifetime = new AbortController();

  constructor(
    private readonly ctx: CoreContext,
    readonly deps: MailDeps,
  ) {
    const now = () => ctx.clock.now();
    this.store = new MailStore(ctx.stateDb, now);
    this.files = new MailConfigFiles(ctx.config.vaultDir);
    this.outbox = new Outbox(ctx.stateDb, this.store, ctx.platform.secrets, ctx.clock, ctx.log.child('mail.outbox'), (row) =>
      this.changed(row.inbox_id, 'outbox', { thread_id: row.thread_id, status: row.status }),
    );
  }

  private iso = () => new Date(this.ctx.clock.now()).toISOString();

  /** Tells the UI (hub) and refreshes the unread badge. */
  changed(inboxId: string, reason: string, extra: Record<string, unknown> = {}): void {
    this.ctx.hub.broadcast('MailChanged', { inbox_id: inboxId, reason, ...extra });
    const total = Object.values(this.store.unreadCounts()).reduce((a, b) => a + b, 0);
    this.ctx.platform.setBadge('mail', total);
  }

  // ---------- contract shapes ----------

  inboxDto(ib: InboxRow): JsonObject {
    return { id: ib.id, address: ib.address, labels: ib.labels, status: ib.status };
  }

  threadDto(t: ThreadRow): JsonObject {
    return {
      id: t.id,
      inbox_id: t.inbox_id,
      subject: t.subject,
      status: this.store.effectiveStatus(t),
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

  // ---------- inboxes ----------

  createInbox(input: { address: string; id?: string; name?: string; labels?: string[] }): InboxRow {
    const ib = this.store.createInbox(input);
    this.changed(ib.id, 'inbox');
    return ib;
  }

  updateInbox(
    id: string,
    patch: {
      name?: string | null;
      labels?: string[];
      status?: 'active' | 'paused';
      imap?: (Omit<ImapSettings, 'password_sealed'> & { password?: string }) | null;
      smtp?: (Omit<SmtpSettings, 'password_sealed'> & { password?: string }) | null;
    },
  ): InboxRow {
    const cur = this.store.inbox(id);
    const seal = (p: string) => this.ctx.platform.secrets.encrypt(p);
    const next: Parameters<MailStore['updateInbox']>[1] = { name: patch.name, labels: patch.labels, status: patch.status };
    if (patch.imap !== undefined) {
      if (patch.imap === null) next.imap = null;
      else {
        const { password, ...rest } = patch.imap;
        const sealed = password !== undefined ? seal(password) : cur.imap?.password_sealed;
        if (!sealed) throw invalidArgument('IMAP settings need a password the first time they are set.');
        next.imap = { ...rest, mailbox: rest.mailbox || 'INBOX', password_sealed: sealed };
      }
    }
    if (patch.smtp !== undefined) {
      if (patch.smtp === null) next.smtp = null;
      else {
        const { password, ...rest } = patch.smtp;
        next.smtp = { ...rest, ...(password !== undefined ? { password_sealed: seal(password) } : cur.smtp?.password_sealed ? { password_sealed: cur.smtp.password_sealed } : {}) };
      }
    }
    for (const k of Object.keys(next) as Array<keyof typeof next>) if (next[k] === undefined) delete next[k];
    const ib = this.store.updateInbox(id, next);
    if (this.started) void this.restartSync(ib.id);
    this.changed(ib.id, 'inbox');
    return ib;
  }

  deleteInbox(id: string): void {
    const ib = this.store.inbox(id);
    void this.syncs.get(ib.id)?.stop();
    this.syncs.delete(ib.id);
    this.store.deleteInbox(ib.id);
    this.changed(ib.id, 'inbox');
  }

  /**
   * Tries an IMAP or SMTP login without saving anything. A missing password means the one stored
   * for `inbox_id` (editing an account without retyping it).
   */
  async testAccount(body: MailTestBody & { settings: { password?: string } }): Promise<MailTestResult> {
    const stored = body.inbox_id ? this.store.inbox(body.inbox_id) : undefined;
    const open = (sealed: string | undefined) => {
      if (!sealed) return undefined;
      try {
        return this.ctx.platform.secrets.decrypt(sealed);
      } catch {
        throw new MailroomError('password_unreadable', 'The stored password cannot be read on this machine; type it again.', {}, 409);
      }
    };
    if (body.kind === 'imap') {
      const s = body.settings;
      const password = s.password ?? open(stored?.imap?.password_sealed);
      if (password === undefined) throw invalidArgument('Type the IMAP password to test the account.');
      return testImap({ host: s.host, port: s.port, secure: s.secure ?? true, user: s.user, password, mailbox: s.mailbox ?? 'INBOX' });
    }
    const s = body.settings;
    const password = s.password ?? open(stored?.smtp?.password_sealed);
    if (s.user && password === undefined) throw invalidArgument('Type the SMTP password to test the account.');
    return testSmtp({ host: s.host, port: s.port, secure: s.secure ?? false, user: s.user || undefined, password });
  }

  /** Inbox view for the UI: settings without secrets, unread counts, sync state. */
  inboxView(ib: InboxRow): Record<string, unknown> {
    const counts = this.store.db.prepare('SELECT count(*) AS n FROM mail_threads WHERE inbox_id = ?').get(ib.id) as { n: number };
    return {
      ...this.inboxDto(ib),
      name: ib.name,
      unread: this.store.unreadCounts()[ib.id] ?? 0,
      threads: counts.n,
      imap: ib.imap ? { host: ib.imap.host, port: ib.imap.port, secure: ib.imap.secure, user: ib.imap.user, mailbox: ib.imap.mailbox, has_password: true } : null,
      smtp: ib.smtp ? { host: ib.smtp.host, port: ib.smtp.port, secure: ib.smtp.secure, user: ib.smtp.user ?? null, has_password: !!ib.smtp.password_sealed } : null,
      sync: this.syncs.get(ib.id)?.state ?? null,
    };
  }

  // ---------- import ----------

  async importItems(inboxId: string, items: Iterable<RawItem>, onProgress?: (p: { phase: 'parse' | 'store'; done: number; total: number }) => void): Promise<ImportReport> {
    const ib = this.store.inbox(inboxId);
    const report = await ingest(this.store, ib, items, { now: () => this.ctx.clock.now(), log: this.ctx.log.child('mail.import'), onProgress });
    if (report.imported) {
      this.changed(ib.id, 'import', { imported: report.imported });
      // Triage on arrival: a small import (an IMAP poll, a few .eml) answers already triaged; a
      // big one is triaged in the background, the chips appearing as it goes.
      const run = this.triageOnArrival(ib.id, report.thread_ids);
      if (report.thread_ids.length <= ARRIVAL_TRIAGE_INLINE) await run;
    }
    return report;
  }

  private triaging: Promise<void> = Promise.resolve();

  /**
   * Triages the latest inbound message of each thread that has none yet (default taxonomy), in
   * the order given, yielding to the event loop between batches; one run at a time, ended by stop().
   */
  triageOnArrival(inboxId: string, threadIds: string[]): Promise<void> {
    const signal = this.lifetime.signal;
    const run = this.triaging.then(async () => {
      let tax;
      try {
        tax = this.files.taxonomy('default');
      } catch (e) {
        this.ctx.log.warn('triage on arrival skipped: no default taxonomy', { error: String(e) });
        return;
      }
      let done = 0;
      let sliceStart = performance.now();
      for (let i = 0; i < threadIds.length; i++) {
        if (performance.now() - sliceStart > ARRIVAL_TRIAGE_SLICE_MS) {
          await new Promise<void>((r) => setImmediate(r));
          sliceStart = performance.now();
        }
        if (signal.aborted) return;
        const t = this.store.findThread(threadIds[i]);
        if (!t) continue;
        const m = [...this.store.threadMessages(t.id)].reverse().find((x) => x.direction === 'inbound');
        if (!m || m.triage) continue;
        try {
          const r = await this.onDeviceTriage(m, tax);
          if (signal.aborted) return;
          this.recordTriage(m, t, { ...r, taxonomy_id: tax.id, at: this.iso() });
          done++;
        } catch (e) {
          this.ctx.log.warn('triage on arrival failed', { message_id: m.id, error: String(e) });
        }
        if (done && done % ARRIVAL_TRIAGE_BATCH === 0) this.changed(inboxId, 'triage');
      }
      if (done) this.changed(inboxId, 'triage', { triaged: done });
    });
    this.triaging = run.catch(() => undefined);
    return run;
  }

  private recordTriage(m: MessageRow, t: ThreadRow, record: Record<string, unknown> & TriageResult): void {
    this.store.setMessageTriage(m.id, record);
    this.store.setThreadTriage(t.id, { ...record, message_id: m.id });
    if (record.intent !== 'other' && !t.labels.includes(record.intent)) this.store.setThreadLabels(t.id, [...t.labels, record.intent]);
  }

  importPath(inboxId: string, p: string, onProgress?: (p: { phase: 'parse' | 'store'; done: number; total: number }) => void): Promise<ImportReport> {
    const ib = this.store.inbox(inboxId);
    // Streams (an mbox is split as it is read); the UI hears the progress like an upload's.
    const progress = onProgress ?? ((x: { phase: 'parse' | 'store'; done: number; total: number }) => this.ctx.hub.broadcast('MailImportProgress', { import_id: null, inbox_id: ib.id, ...x }));
    return this.importItems(ib.id, readSource(p), progress);
  }

  importUpload(inboxId: string, buf: Buffer, filename: string, importId?: string): Promise<ImportReport> {
    this.store.inbox(inboxId);
    return this.importUploadItems(inboxId, [...readUpload(buf, filename)], importId);
  }

  private importUploadItems(inboxId: string, items: Iterable<RawItem>, importId?: string): Promise<ImportReport> {
    const progress = (p: { phase: 'parse' | 'store' | 'done'; done: number; total: number }) => this.ctx.hub.broadcast('MailImportProgress', { import_id: importId ?? null, inbox_id: inboxId, ...p });
    return this.importItems(inboxId, items, progress).then((report) => {
      // The last event of an import: the page ends its bar on this or on the HTTP reply, whichever is first.
      progress({ phase: 'done', done: report.total, total: report.total });
      return report;
    });
  }

  /**
   * An upload as it arrives: the inbox is checked first (404 before a byte is read), then the body
   * streams to a private temp file (0600 in <data-dir>/tmp, removed afterwards) rather than
   * being held in memory, and is validated by the same rule as `mailroom mail import`.
   */
  async importUploadStream(inboxId: string, body: AsyncIterable<Buffer>, filename: string, importId?: string, maxBytes = MAX_UPLOAD_BYTES): Promise<ImportReport> {
    const ib = this.store.inbox(inboxId);
    const dir = path.join(this.ctx.config.dataDir, 'tmp');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `upload-${crypto.randomBytes(8).toString('hex')}`);
    try {
      const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
      let size = 0;
      const limited = async function* () {
        for await (const chunk of body) {
          size += chunk.length;
          if (size > maxBytes) throw new MailroomError('too_large', `The upload is larger than ${maxBytes} bytes. Import a big mailbox from disk instead: mailroom mail import PATH --inbox ${ib.id}.`, { max_bytes: maxBytes }, 413);
          yield chunk;
        }
      };
      await pipeline(limited, out);
      // Validated up front (a non-mail file is an error before anything is stored), then streamed.
      const items = readUploadFile(file, filename);
      const first = items.next();
      const all = (function* () {
        if (!first.done) yield first.value;
        yield* items;
      })();
      return await this.importUploadItems(ib.id, all, importId);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  // ---------- tools ----------

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
    const ib = this.store.inbox(a.inbox_id);
    const limit = a.limit ?? 50;
    const filterKey = sha(JSON.stringify([a.status ?? null, a.label ?? null, a.updated_after ?? null])).slice(0, 12);
    const c = a.cursor ? this.decodeCursor(a.cursor, ib.id, filterKey) : { v: 1 as const, i: ib.id, hw: this.store.maxThreadSeq(), b: Number.MAX_SAFE_INTEGER, f: filterKey };
    const rows = this.store.threadsPage({ inboxId: ib.id, status: a.status, label: a.label, updatedAfter: a.updated_after, beforeSeq: c.b, highWater: c.hw, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const out: JsonObject = { threads: page.map((t) => this.threadDto(t)) };
    if (rows.length > limit) out.next_cursor = this.encodeCursor({ ...c, b: page[page.length - 1].seq });
    return out;
  }

  getThread(a: { thread_id: string; include_messages?: boolean }): JsonObject {
    const t = this.store.thread(a.thread_id);
    const out: JsonObject = { thread: this.threadDto(t) };
    if (a.include_messages !== false) out.messages = this.store.threadMessages(t.id).map((m) => this.messageDto(m));
    return out;
  }

  searchInbox(a: { inbox_id: string; query: string; top_k?: number; time_range?: { start?: string; end?: string } }): JsonObject {
    const ib = this.store.inbox(a.inbox_id);
    const hits = searchMessages(this.store.db, { inboxId: ib.id, query: a.query, topK: a.top_k ?? 10, start: a.time_range?.start, end: a.time_range?.end });
    return { results: hits.map((h) => ({ message_id: h.message_id, thread_id: h.thread_id, score: Math.round(h.score * 1e4) / 1e4, snippet: h.snippet })) };
  }

  private conceptTable: ConceptTable | null | undefined;

  /** The WordNet concept table for semantic similarity (loaded once; absent → lexical only). */
  concepts(): ConceptTable | undefined {
    if (this.conceptTable === undefined) this.conceptTable = ConceptTable.load(this.ctx.config.appRoot) ?? null;
    return this.conceptTable ?? undefined;
  }

  /** A person's relabels (Mail page) for this taxonomy, as labelled examples for the next triage. */
  relabelExamples(inboxId: string, taxonomyId: string, exceptId?: string): LabelledExample[] {
    const rows = this.store.db
      .prepare("SELECT id, subject, text, triage FROM mail_messages WHERE inbox_id = ? AND triage IS NOT NULL AND json_extract(triage, '$.relabelled') = 1 ORDER BY rowid DESC LIMIT 500")
      .all(inboxId) as Array<{ id: string; subject: string; text: string; triage: string }>;
    return rows.flatMap((r) => {
      if (r.id === exceptId) return [];
      const t = JSON.parse(r.triage) as { taxonomy_id?: string; intent?: string; urgency?: Urgency };
      if (t.taxonomy_id && t.taxonomy_id !== taxonomyId) return [];
      return [{ text: `${r.subject}\n${latestText(r.text)}`, intent: t.intent, urgency: t.urgency }];
    });
  }

  private async llmFor(sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<StructuredLlm | undefined> {
    return structuredLlm({ sample, llm: this.ctx.config.file.llm, signal });
  }

  /** Triage with what is on this machine: taxonomy, facts, concepts, the person's relabels and the ONNX model. */
  private async onDeviceTriage(m: MessageRow, tax: ReturnType<MailConfigFiles['taxonomy']>): Promise<TriageResult> {
    const facts = await messageFacts(m, this.store.messageRaw(m.id));
    const earlier = this.store.threadMessages(m.thread_id).filter((x) => x.id !== m.id && x.created_at <= m.created_at);
    return triage(m, tax, this.deps.nlp, { facts, concepts: this.concepts(), earlier, examples: this.relabelExamples(m.inbox_id, tax.id, m.id) });
  }

  async triageMessage(a: { message_id: string; taxonomy_id: string }, sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<TriageResult> {
    const m = this.store.message(a.message_id);
    const tax = this.files.taxonomy(a.taxonomy_id);
    const earlier = this.store.threadMessages(m.thread_id).filter((x) => x.id !== m.id && x.created_at <= m.created_at);
    const llm = await this.llmFor(sample, signal);
    const r = llm ? ((await llmTriage(llm, m, tax, earlier).catch(() => undefined)) ?? (await this.onDeviceTriage(m, tax))) : await this.onDeviceTriage(m, tax);
    this.recordTriage(m, this.store.thread(m.thread_id), { ...r, taxonomy_id: tax.id, at: this.iso() });
    this.changed(m.inbox_id, 'triage', { thread_id: m.thread_id });
    return r;
  }

  /**
   * A person corrects triage on the Mail page: the correction is stored on the message (marked
   * `relabelled`) and becomes a labelled example that later triage of similar mail follows.
   */
  relabel(a: { message_id: string; intent?: string; urgency?: Urgency; taxonomy_id?: string }): Record<string, unknown> {
    const m = this.store.message(a.message_id);
    if (!a.intent && !a.urgency) throw invalidArgument('Pass intent and/or urgency to relabel a message.');
    if (a.urgency && !['low', 'medium', 'high'].includes(a.urgency)) throw invalidArgument('urgency must be low, medium or high.');
    const prev = (m.triage ?? {}) as Record<string, unknown>;
    const taxonomyId = a.taxonomy_id ?? (typeof prev.taxonomy_id === 'string' ? prev.taxonomy_id : 'default');
    const tax = this.files.taxonomy(taxonomyId);
    if (a.intent && !tax.intents.some((i) => i.id === a.intent)) {
      throw invalidArgument(`Intent '${a.intent}' is not in taxonomy '${tax.id}'; use one of: ${tax.intents.map((i) => i.id).join(', ')}.`, { intents: tax.intents.map((i) => i.id) });
    }
    const intent = a.intent ?? (prev.intent as string | undefined);
    const route = tax.intents.find((i) => i.id === intent)?.route;
    const record: Record<string, unknown> = { ...prev, ...(a.intent ? { intent: a.intent } : {}), ...(a.urgency ? { urgency: a.urgency } : {}), taxonomy_id: tax.id, relabelled: 1, confidence: 1, at: this.iso() };
    if (route) record.suggested_route = route;
    else delete record.suggested_route;
    this.store.setMessageTriage(m.id, record);
    const t = this.store.thread(m.thread_id);
    this.store.setThreadTriage(t.id, { ...record, message_id: m.id });
    if (a.intent) {
      const oldIntent = typeof prev.intent === 'string' ? prev.intent : undefined;
      const labels = t.labels.filter((l) => l !== oldIntent);
      if (!labels.includes(a.intent)) labels.push(a.intent);
      this.store.setThreadLabels(t.id, labels);
    }
    this.changed(m.inbox_id, 'triage', { thread_id: t.id });
    return record;
  }

  async extract(a: { message_id: string; schema_id: string }, sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<ExtractResult> {
    const m = this.store.message(a.message_id);
    const { schema } = this.files.schema(a.schema_id);
    const facts = await messageFacts(m, this.store.messageRaw(m.id));
    const llm = await this.llmFor(sample, signal);
    if (llm) {
      const r = await llmExtract(llm, m, schema, facts).catch(() => undefined);
      if (r) return r;
    }
    return extractToSchema(m, schema, this.deps.nlp, facts);
  }

  // ---------- drafts ----------

  private draftFrom(r: Record<string, unknown>): DraftRow {
    return {
      id: r.id as string,
      thread_id: r.thread_id as string,
      policy_id: r.policy_id as string,
      goal: r.goal as string,
      body: r.body as string,
      risk_flags: JSON.parse(r.risk_flags as string) as string[],
      cited_message_ids: JSON.parse(r.cited as string) as string[],
      needs_human_approval: r.needs_approval === 1,
      approved_at: (r.approved_at as string | null) ?? null,
      generator: r.generator as string,
      status: r.status as DraftRow['status'],
      created_at: r.created_at as string,
      updated_at: r.updated_at as string,
    };
  }

  findDraft(id: string): DraftRow | undefined {
    const r = this.store.db.prepare('SELECT * FROM mail_drafts WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    return r ? this.draftFrom(r) : undefined;
  }

  draft(id: string): DraftRow {
    const d = this.findDraft(id);
    if (!d) throw new MailroomError('draft_not_found', `No draft '${id}'.`, { draft_id: id }, 404);
    return d;
  }

  threadDrafts(threadId: string): DraftRow[] {
    return (this.store.db.prepare("SELECT * FROM mail_drafts WHERE thread_id = ? AND status != 'discarded' ORDER BY created_at DESC").all(threadId) as Record<string, unknown>[]).map((r) => this.draftFrom(r));
  }

  private checks(threadId: string, body: string, policyId: string) {
    const t = this.store.thread(threadId);
    const ib = this.store.inbox(t.inbox_id);
    const policy = this.files.policy(policyId);
    const recipients = replyRecipients(replyTarget(this.store.threadMessages(t.id)));
    const flags = policyRiskFlags(body, policy, { inboxAddress: ib.address, recipients });
    return { flags, needs: needsApproval(policy, flags) };
  }

  async draftReply(a: { thread_id: string; policy_id: string; goal: string }, sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<DraftRow> {
    const t = this.store.thread(a.thread_id);
    const ib = this.store.inbox(t.inbox_id);
    const policy = this.files.policy(a.policy_id);
    if (!a.goal.trim()) throw invalidArgument('goal must say what the reply should achieve (e.g. "confirm the meeting on Tuesday").');
    const messages = this.store.threadMessages(t.id);
    const target = replyTarget(messages);
    if (policy.refuseAutomated && target && target.direction === 'inbound') {
      const facts = await messageFacts(target, this.store.messageRaw(target.id));
      if (facts.senderKind === 'automated') {
        throw new MailroomError(
          'automated_sender',
          `Policy '${policy.id}' says never to reply to automated senders, and ${target.from?.email ?? 'this sender'} is automated (${facts.automatedBy ?? 'automated'}). No draft was made.`,
          { thread_id: t.id, message_id: target.id, sender: target.from?.email ?? null, reason: facts.automatedBy ?? null },
          409,
        );
      }
    }
    const out = await generateDraft({ thread: t, messages, inbox: ib, policy, goal: a.goal, sample, llm: this.ctx.config.file.llm, signal });
    const flags = policyRiskFlags(out.body, policy, { inboxAddress: ib.address, recipients: out.recipients });
    const id = 'd_' + crypto.randomBytes(10).toString('hex');
    const now = this.iso();
    this.store.db
      .prepare(
        `INSERT INTO mail_drafts (id, thread_id, policy_id, goal, body, body_sha, risk_flags, cited, needs_approval, generator, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?)`,
      )
      .run(id, t.id, policy.id, a.goal, out.body, sha(out.body.trim()), JSON.stringify(flags), JSON.stringify(out.cited), needsApproval(policy, flags) ? 1 : 0, out.generator, now, now);
    this.changed(ib.id, 'draft', { thread_id: t.id, draft_id: id });
    return this.draft(id);
  }

  /** Edits re-run the policy checks and withdraw any approval: a person approves what is sent. */
  updateDraft(id: string, body: string): DraftRow {
    const d = this.draft(id);
    if (d.status === 'sent') throw new MailroomError('conflict', `Draft '${id}' was already sent; start a new draft.`, { draft_id: id }, 409);
    const { flags, needs } = this.checks(d.thread_id, body, d.policy_id);
    this.store.db
      .prepare("UPDATE mail_drafts SET body = ?, body_sha = ?, risk_flags = ?, needs_approval = ?, approved_at = NULL, status = 'draft', updated_at = ? WHERE id = ?")
      .run(body, sha(body.trim()), JSON.stringify(flags), needs ? 1 : 0, this.iso(), id);
    return this.draft(id);
  }

  approveDraft(id: string): DraftRow {
    const d = this.draft(id);
    if (d.status === 'sent') throw new MailroomError('conflict', `Draft '${id}' was already sent.`, { draft_id: id }, 409);
    this.store.db.prepare("UPDATE mail_drafts SET approved_at = ?, status = 'approved', updated_at = ? WHERE id = ?").run(this.iso(), this.iso(), id);
    return this.draft(id);
  }

  discardDraft(id: string): void {
    this.draft(id);
    this.store.db.prepare("UPDATE mail_drafts SET status = 'discarded', updated_at = ? WHERE id = ?").run(this.iso(), id);
  }

  // ---------- sending ----------

  /** A draft named by id, or a stored draft of this thread with exactly this text. */
  private resolveBody(threadId: string, bodyOrDraftId: string): { body: string; draft?: DraftRow } {
    const v = bodyOrDraftId;
    if (/^d_[0-9a-f]{20}$/.test(v.trim())) {
      const d = this.draft(v.trim());
      if (d.thread_id !== threadId) throw invalidArgument(`Draft '${d.id}' belongs to thread '${d.thread_id}', not '${threadId}'.`);
      return { body: d.body, draft: d };
    }
    if (!v.trim()) throw invalidArgument('body_or_draft_id is empty: pass the reply text or a draft id (d_…).');
    const r = this.store.db.prepare("SELECT * FROM mail_drafts WHERE thread_id = ? AND body_sha = ? AND status != 'discarded' ORDER BY created_at DESC LIMIT 1").get(threadId, sha(v.trim())) as
      | Record<string, unknown>
      | undefined;
    return { body: v, draft: r ? this.draftFrom(r) : undefined };
  }

  async sendReply(a: { thread_id: string; body_or_draft_id: string; idempotency_key: string }, waitMs = 20_000): Promise<{ message_id: string; status: 'queued' | 'sent' }> {
    if (!a.idempotency_key.trim()) throw invalidArgument('idempotency_key is empty; pass a unique key per reply (a UUID works).');
    const t = this.store.thread(a.thread_id);
    const ib = this.store.inbox(t.inbox_id);
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
    const q = await this.outbox.enqueue({ key: a.idempotency_key, thread: t, inbox: ib, messages: this.store.threadMessages(t.id), body, draftId: draft?.id });
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
    const ib = this.store.inbox(a.inbox_id);
    const bad = [...a.to, ...(a.cc ?? [])].filter((x) => !/^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/.test(x));
    if (bad.length) throw invalidArgument(`Not an email address: ${bad.join(', ')}.`, { invalid: bad });
    if (!a.to.length) throw invalidArgument('Add at least one recipient (To).');
    let forward: { thread: ThreadRow; message: MessageRow; raw: Buffer } | undefined;
    if (a.forward_of) {
      const message = this.store.message(a.forward_of);
      if (message.inbox_id !== ib.id) throw invalidArgument(`Message '${a.forward_of}' is not in inbox '${ib.id}'.`, { message_id: a.forward_of });
      forward = { message, thread: this.store.thread(message.thread_id), raw: this.store.messageRaw(message.id) };
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
    if (this.lifetime.signal.aborted) throw shuttingDown();
    const wait = new AbortController();
    const onStop = () => wait.abort(new Error('mail stopped'));
    this.lifetime.signal.addEventListener('abort', onStop, { once: true });
    try {
      const outcome = await Promise.race([
        attempt.then((row) => ({ row })),
        this.ctx.clock.sleep(waitMs, wait.signal).then(
          () => 'timeout' as const,
          () => 'stopped' as const,
        ),
      ]);
      if (outcome === 'stopped') throw shuttingDown();
      if (outcome === 'timeout') {
        if (this.lifetime.signal.aborted) throw shuttingDown();
        return this.outbox.get(key)!;
      }
      return outcome.row;
    } finally {
      wait.abort();
      this.lifetime.signal.removeEventListener('abort', onStop);
    }
  }

  // ---------- resources ----------

  summary(threadId: string): JsonObject {
    const t = this.store.thread(threadId);
    return { thread_id: t.id, summary: summarizeThread(t, this.store.threadMessages(t.id)), updated_at: t.updated_at };
  }

  // ---------- bridges ----------

  private threadAsNote(t: ThreadRow, only?: MessageRow): { title: string; content: string } {
    const msgs = only ? [only] : this.store.threadMessages(t.id);
    const body = msgs
      .map((m) => `## ${m.from?.name ?? m.from?.email ?? 'unknown'} — ${m.created_at}\n\n${m.text.trim() || '(no text)'}`)
      .join('\n\n');
    const head = `Mail thread ${t.id}${only ? `, message ${only.id}` : ''} · ${t.participants.map((p) => p.email).join(', ')}`;
    return { title: only?.subject || t.subject || '(no subject)', content: `${head}\n\n${body}\n` };
  }

  async saveToInbox(target: { thread_id?: string; message_id?: string }): Promise<unknown> {
    if (!this.deps.inbox) throw new MailroomError('unavailable', 'The inbox is not available in this Mailroom, so mail cannot be saved as a note.', {}, 503);
    const m = target.message_id ? this.store.message(target.message_id) : undefined;
    const t = this.store.thread(m?.thread_id ?? target.thread_id ?? '');
    const note = this.threadAsNote(t, m);
    const tri = (m?.triage ?? t.triage) as { suggested_route?: string; intent?: string } | null;
    const folder = tri?.suggested_route?.startsWith('vault:') ? tri.suggested_route.slice(6) : undefined;
    return this.deps.inbox.save({ content: note.content, title: note.title, processing_hints: { ...(folder ? { category: folder } : {}), tags: ['mail', ...(tri?.intent ? [tri.intent] : [])] } });
  }

  async route(messageId: string, dryRun: boolean): Promise<unknown> {
    const m = this.store.message(messageId);
    const tri = m.triage as { suggested_route?: string; intent?: string } | null;
    if (!tri?.suggested_route) throw new MailroomError('not_triaged', `Message ${m.id} has no suggested route yet; run triage_message first.`, { message_id: m.id }, 409);
    if (tri.suggested_route.startsWith('vault:')) return { saved: await this.saveToInbox({ message_id: m.id }) };
    if (!this.deps.router) throw new MailroomError('unavailable', 'The router is not available in this Mailroom.', {}, 503);
    const t = this.store.thread(m.thread_id);
    const note = this.threadAsNote(t, m);
    return this.deps.router.routeItem(
      { route: tri.suggested_route.replace(/^route:/, ''), source: 'mail', title: note.title, content: note.content, metadata: { message_id: m.id, thread_id: t.id, intent: tri.intent, from: m.from?.email } },
      { dryRun },
    );
  }

  // ---------- lifecycle ----------

  /** True once the mail tables exist (migration 005 ran). */
  ready(): boolean {
    return !!this.store.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mail_outbox'").get();
  }

  syncState(inboxId: string): ImapState | undefined {
    return this.syncs.get(inboxId)?.state;
  }

  private async restartSync(inboxId: string): Promise<void> {
    await this.syncs.get(inboxId)?.stop();
    this.syncs.delete(inboxId);
    const ib = this.store.findInbox(inboxId);
    if (!ib?.imap || ib.status !== 'active') return;
    const s = new ImapSync(ib.id, {
      store: this.store,
      secrets: this.ctx.platform.secrets,
      log: this.ctx.log.child('mail.imap'),
      ingest: (inbox, items) => this.importItems(inbox.id, items),
      onState: (id, state) => this.ctx.hub.broadcast('MailSync', { inbox_id: id, ...state }),
    });
    this.syncs.set(ib.id, s);
    await s.start();
  }

  /** Resolves when an inbox's IMAP sync has run at least once (tests, CLI). */
  async syncNow(inboxId: string): Promise<void> {
    const s = this.syncs.get(inboxId);
    if (!s) throw new MailroomError('not_found', `Inbox '${inboxId}' has no running IMAP sync.`, { inbox_id: inboxId });
    await s.sync();
  }

  async start(): Promise<void> {
    // Until migration 005 is in the state DB's list the tables are absent; stay inert, not fatal.
    if (!this.store.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mail_outbox'").get()) {
      this.ctx.log.error('mail tables are missing: migration 005_mail is not registered in db/migrations/index.ts; mail stays off');
      return;
    }
    if (this.lifetime.signal.aborted) this.lifetime = new AbortController();
    this.started = true;
    this.outbox.start();
    for (const ib of this.store.listInboxes()) if (ib.imap && ib.status === 'active') void this.restartSync(ib.id);
    const total = Object.values(this.store.unreadCounts()).reduce((a, b) => a + b, 0);
    this.ctx.platform.setBadge('mail', total);
  }

  async stop(): Promise<void> {
    this.started = false;
    this.lifetime.abort();
    await Promise.allSettled([...this.syncs.values()].map((s) => s.stop()));
    this.syncs.clear();
    await this.triaging;
    await this.outbox.stop();
  }
}

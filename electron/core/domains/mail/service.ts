import type { CoreContext, JsonObject, SampleRequest } from '../../kernel/types';
import type { MailTestBody, MailTestResult } from '../../../../shared/contract/mail';
import { HubEvent } from '../../../../shared/contract/hub';
import { MailBridges } from './bridges';
import { MailConfigFiles } from './config';
import { MailDrafts, type DraftRow } from './drafting';
import type { ExtractResult } from './extract';
import type { ImapState } from './imap';
import type { RawItem } from './importers';
import { MailImport } from './importing';
import { MailInboxes, type InboxSettingsPatch } from './inboxes';
import type { ImportReport } from './ingest';
import { Outbox } from './outbox';
import type { MailDeps, MailPart } from './part';
import { ContractValidator } from './schemas';
import { MailSending } from './sending';
import { MailStore, type InboxRow, type MessageRow, type ThreadRow, type ThreadStatus } from './store';
import type { TriageResult, Urgency } from './triage';
import { MailUnderstanding } from './understanding';
import { MailViews } from './views';

export type { MailDeps } from './part';
export type { DraftRow } from './drafting';
export { MAX_UPLOAD_BYTES } from './importing';

type Progress = (p: { phase: 'parse' | 'store'; done: number; total: number }) => void;

/**
 * The mail domain's face, shared by MCP tools, REST routes, the hub and the CLI. It builds the
 * store, the outbox and the parts — views (reading), inboxes (accounts and IMAP sync), import,
 * understanding (triage, relabels, extraction), drafts, sending and bridges — and keeps one API
 * over them; each part holds its own logic.
 */
export class MailService {
  readonly store: MailStore;
  readonly contracts = new ContractValidator();
  readonly files: MailConfigFiles;
  readonly outbox: Outbox;
  readonly views: MailViews;
  readonly inboxes: MailInboxes;
  readonly importer: MailImport;
  readonly understanding: MailUnderstanding;
  readonly drafts: MailDrafts;
  readonly sending: MailSending;
  readonly bridges: MailBridges;
  /** Aborted by stop(): every wait the service starts (sendReply's reply window) ends with it. */
  private lifetime = new AbortController();

  constructor(
    private readonly ctx: CoreContext,
    readonly deps: MailDeps,
  ) {
    this.store = new MailStore(ctx.stateDb, () => ctx.clock.now());
    this.files = new MailConfigFiles(ctx.config.vaultDir);
    const part: MailPart = {
      core: ctx,
      store: this.store,
      files: this.files,
      deps,
      changed: (inboxId, reason, extra) => this.changed(inboxId, reason, extra),
      iso: () => new Date(ctx.clock.now()).toISOString(),
      lifetime: () => this.lifetime.signal,
    };
    this.outbox = new Outbox(ctx.stateDb, this.store, ctx.platform.secrets, ctx.clock, ctx.log.child('mail.outbox'), (row) =>
      this.changed(row.inbox_id, 'outbox', { thread_id: row.thread_id, status: row.status }),
    );
    this.views = new MailViews(part);
    this.understanding = new MailUnderstanding(part);
    this.importer = new MailImport(part, this.understanding);
    this.inboxes = new MailInboxes(part, this.views, (inboxId, items) => this.importer.importItems(inboxId, items));
    this.drafts = new MailDrafts(part);
    this.sending = new MailSending(part, this.drafts, this.outbox);
    this.bridges = new MailBridges(part);
  }

  /** Tells the UI (hub) and refreshes the unread badge. */
  changed(inboxId: string, reason: string, extra: Record<string, unknown> = {}): void {
    this.ctx.hub.broadcast(HubEvent.mailChanged, { inbox_id: inboxId, reason, ...extra });
    const total = Object.values(this.store.unreadCounts()).reduce((a, b) => a + b, 0);
    this.ctx.platform.setBadge('mail', total);
  }

  // ---------- views ----------
  inboxDto = (ib: InboxRow): JsonObject => this.views.inboxDto(ib);
  threadDto = (t: ThreadRow): JsonObject => this.views.threadDto(t);
  messageDto = (m: MessageRow): JsonObject => this.views.messageDto(m);
  listThreads = (a: { inbox_id: string; status?: ThreadStatus; label?: string; updated_after?: string; limit?: number; cursor?: string }): JsonObject => this.views.listThreads(a);
  getThread = (a: { thread_id: string; include_messages?: boolean }): JsonObject => this.views.getThread(a);
  searchInbox = (a: { inbox_id: string; query: string; top_k?: number; time_range?: { start?: string; end?: string } }): JsonObject => this.views.searchInbox(a);
  summary = (threadId: string): JsonObject => this.views.summary(threadId);

  // ---------- inboxes ----------
  createInbox = (input: { address: string; id?: string; name?: string; labels?: string[] }): InboxRow => this.inboxes.createInbox(input);
  updateInbox = (id: string, patch: InboxSettingsPatch): InboxRow => this.inboxes.updateInbox(id, patch);
  deleteInbox = (id: string): void => this.inboxes.deleteInbox(id);
  testAccount = (body: MailTestBody & { settings: { password?: string } }): Promise<MailTestResult> => this.inboxes.testAccount(body);
  inboxView = (ib: InboxRow): Record<string, unknown> => this.inboxes.inboxView(ib);
  syncState = (inboxId: string): ImapState | undefined => this.inboxes.syncState(inboxId);
  syncNow = (inboxId: string): Promise<void> => this.inboxes.syncNow(inboxId);

  // ---------- import ----------
  importItems = (inboxId: string, items: Iterable<RawItem>, onProgress?: Progress): Promise<ImportReport> => this.importer.importItems(inboxId, items, onProgress);
  importPath = (inboxId: string, p: string, onProgress?: Progress): Promise<ImportReport> => this.importer.importPath(inboxId, p, onProgress);
  importUpload = (inboxId: string, buf: Buffer, filename: string, importId?: string): Promise<ImportReport> => this.importer.importUpload(inboxId, buf, filename, importId);
  importUploadStream = (inboxId: string, body: AsyncIterable<Buffer>, filename: string, importId?: string, maxBytes?: number): Promise<ImportReport> =>
    this.importer.importUploadStream(inboxId, body, filename, importId, maxBytes);

  // ---------- understanding ----------
  triageOnArrival = (inboxId: string, threadIds: string[]): Promise<void> => this.understanding.triageOnArrival(inboxId, threadIds);
  triageMessage = (a: { message_id: string; taxonomy_id: string }, sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<TriageResult> =>
    this.understanding.triageMessage(a, sample, signal);
  relabel = (a: { message_id: string; intent?: string; urgency?: Urgency; taxonomy_id?: string }): Record<string, unknown> => this.understanding.relabel(a);
  extract = (a: { message_id: string; schema_id: string }, sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<ExtractResult> => this.understanding.extract(a, sample, signal);

  // ---------- drafts and sending ----------
  findDraft = (id: string): DraftRow | undefined => this.drafts.findDraft(id);
  draft = (id: string): DraftRow => this.drafts.draft(id);
  threadDrafts = (threadId: string): DraftRow[] => this.drafts.threadDrafts(threadId);
  draftReply = (a: { thread_id: string; policy_id: string; goal: string }, sample?: (r: SampleRequest) => Promise<string>, signal?: AbortSignal): Promise<DraftRow> =>
    this.drafts.draftReply(a, sample, signal);
  updateDraft = (id: string, body: string): DraftRow => this.drafts.updateDraft(id, body);
  approveDraft = (id: string): DraftRow => this.drafts.approveDraft(id);
  discardDraft = (id: string): void => this.drafts.discardDraft(id);
  sendReply = (a: { thread_id: string; body_or_draft_id: string; idempotency_key: string }, waitMs?: number): Promise<{ message_id: string; status: 'queued' | 'sent' }> =>
    this.sending.sendReply(a, waitMs);
  sendMessage = (
    a: { inbox_id: string; to: string[]; cc?: string[]; subject: string; body: string; idempotency_key: string; forward_of?: string },
    waitMs?: number,
  ): Promise<{ message_id: string; status: 'queued' | 'sent'; thread_id: string | null }> => this.sending.sendMessage(a, waitMs);

  // ---------- bridges ----------
  saveToInbox = (target: { thread_id?: string; message_id?: string }): Promise<unknown> => this.bridges.saveToInbox(target);
  route = (messageId: string, dryRun: boolean): Promise<unknown> => this.bridges.route(messageId, dryRun);

  // ---------- lifecycle ----------

  /** True once the mail tables exist (migration 005 ran). */
  ready(): boolean {
    return !!this.store.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mail_outbox'").get();
  }

  async start(): Promise<void> {
    // Until migration 005 is in the state DB's list the tables are absent; stay inert, not fatal.
    if (!this.ready()) {
      this.ctx.log.error('mail tables are missing: migration 005_mail is not registered in db/migrations/index.ts; mail stays off');
      return;
    }
    if (this.lifetime.signal.aborted) this.lifetime = new AbortController();
    this.outbox.start();
    this.inboxes.start();
    const total = Object.values(this.store.unreadCounts()).reduce((a, b) => a + b, 0);
    this.ctx.platform.setBadge('mail', total);
  }

  async stop(): Promise<void> {
    this.lifetime.abort();
    await this.inboxes.stop();
    await this.understanding.settled();
    await this.outbox.stop();
  }
}

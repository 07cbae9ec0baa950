import { MailroomError, invalidArgument } from '../../kernel/errors';
import type { MailTestBody, MailTestResult } from '../../../../shared/contract/mail';
import { HubEvent } from '../../../../shared/contract/hub';
import { testImap, testSmtp } from './accounts';
import { ImapSync, type ImapState } from './imap';
import type { RawItem } from './importers';
import type { ImportReport } from './ingest';
import type { MailPart } from './part';
import type { ImapSettings, InboxRow, MailStore, SmtpSettings } from './store';
import type { MailViews } from './views';

/** A change to an inbox's settings; passwords arrive in clear and are sealed before they are stored. */
export interface InboxSettingsPatch {
  name?: string | null;
  labels?: string[];
  status?: 'active' | 'paused';
  imap?: (Omit<ImapSettings, 'password_sealed'> & { password?: string }) | null;
  smtp?: (Omit<SmtpSettings, 'password_sealed'> & { password?: string }) | null;
}

/** Inboxes and their accounts: create, change, delete, test a login, and the IMAP sync of each. */
export class MailInboxes {
  private readonly syncs = new Map<string, ImapSync>();
  private started = false;

  constructor(
    private readonly p: MailPart,
    private readonly views: MailViews,
    /** Stores what a sync fetched (the import part, with triage on arrival). */
    private readonly ingest: (inboxId: string, items: Iterable<RawItem>) => Promise<ImportReport>,
  ) {}

  createInbox(input: { address: string; id?: string; name?: string; labels?: string[] }): InboxRow {
    const ib = this.p.store.createInbox(input);
    this.p.changed(ib.id, 'inbox');
    return ib;
  }

  updateInbox(id: string, patch: InboxSettingsPatch): InboxRow {
    const cur = this.p.store.inbox(id);
    const seal = (p: string) => this.p.core.platform.secrets.encrypt(p);
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
    const ib = this.p.store.updateInbox(id, next);
    if (this.started) void this.restartSync(ib.id);
    this.p.changed(ib.id, 'inbox');
    return ib;
  }

  deleteInbox(id: string): void {
    const ib = this.p.store.inbox(id);
    void this.syncs.get(ib.id)?.stop();
    this.syncs.delete(ib.id);
    this.p.store.deleteInbox(ib.id);
    this.p.changed(ib.id, 'inbox');
  }

  /**
   * Tries an IMAP or SMTP login without saving anything. A missing password means the one stored
   * for `inbox_id` (editing an account without retyping it).
   */
  async testAccount(body: MailTestBody & { settings: { password?: string } }): Promise<MailTestResult> {
    const stored = body.inbox_id ? this.p.store.inbox(body.inbox_id) : undefined;
    const open = (sealed: string | undefined) => {
      if (!sealed) return undefined;
      try {
        return this.p.core.platform.secrets.decrypt(sealed);
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
    const counts = this.p.store.db.prepare('SELECT count(*) AS n FROM mail_threads WHERE inbox_id = ?').get(ib.id) as { n: number };
    return {
      ...this.views.inboxDto(ib),
      name: ib.name,
      unread: this.p.store.unreadCounts()[ib.id] ?? 0,
      threads: counts.n,
      imap: ib.imap ? { host: ib.imap.host, port: ib.imap.port, secure: ib.imap.secure, user: ib.imap.user, mailbox: ib.imap.mailbox, has_password: true } : null,
      smtp: ib.smtp ? { host: ib.smtp.host, port: ib.smtp.port, secure: ib.smtp.secure, user: ib.smtp.user ?? null, has_password: !!ib.smtp.password_sealed } : null,
      sync: this.syncs.get(ib.id)?.state ?? null,
    };
  }

  syncState(inboxId: string): ImapState | undefined {
    return this.syncs.get(inboxId)?.state;
  }

  private async restartSync(inboxId: string): Promise<void> {
    await this.syncs.get(inboxId)?.stop();
    this.syncs.delete(inboxId);
    const ib = this.p.store.findInbox(inboxId);
    if (!ib?.imap || ib.status !== 'active') return;
    const s = new ImapSync(ib.id, {
      store: this.p.store,
      secrets: this.p.core.platform.secrets,
      log: this.p.core.log.child('mail.imap'),
      ingest: (inbox, items) => this.ingest(inbox.id, items),
      onState: (id, state) => this.p.core.hub.broadcast(HubEvent.mailSync, { inbox_id: id, ...state }),
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

  /** Starts the IMAP sync of every active inbox with an account. */
  start(): void {
    this.started = true;
    for (const ib of this.p.store.listInboxes()) if (ib.imap && ib.status === 'active') void this.restartSync(ib.id);
  }

  async stop(): Promise<void> {
    this.started = false;
    await Promise.allSettled([...this.syncs.values()].map((s) => s.stop()));
    this.syncs.clear();
  }
}

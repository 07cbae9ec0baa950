import { ImapFlow } from 'imapflow';
import type { Logger, SecretBox } from '../../kernel/index';
import type { ImapSyncState } from '../../../../shared/contract/mail';
import { describeMailError, retryDelayMs, tlsFor } from './accounts';
import type { RawItem } from './importers';
import type { ImportReport } from './ingest';
import type { InboxRow, MailStore } from './store';

export interface ImapSyncDeps {
  store: MailStore;
  secrets: SecretBox;
  log: Logger;
  ingest(inbox: InboxRow, items: RawItem[]): Promise<ImportReport>;
  onState?(inboxId: string, state: ImapState): void;
  /** Wait before the next attempt after n failures in a row (default: 5 s doubling, capped at 15 min). */
  retryDelay?(failures: number): number;
}

export type ImapState = ImapSyncState;

/**
 * Live sync of one inbox from IMAP with imapflow: fetches everything after the last seen UID,
 * then IDLEs (imapflow idles on a selected mailbox when no command runs) and fetches again on
 * every EXISTS. After a failure (wrong password, server down, TLS …) the state says what went
 * wrong in words and the next attempt waits longer each time (5 s doubling, at most 15 min); a
 * successful login resets the wait, and so does editing the account (a new ImapSync).
 * `stop()` logs out and cancels the reconnect timer.
 */
export class ImapSync {
  private client: ImapFlow | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private again = false;
  /** Failed attempts in a row since the last successful login. */
  private failures = 0;
  state: ImapState = { status: 'stopped' };

  constructor(
    private readonly inboxId: string,
    private readonly deps: ImapSyncDeps,
  ) {}

  private set(state: ImapState) {
    this.state = state;
    this.deps.onState?.(this.inboxId, state);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  private async connect(): Promise<void> {
    const inbox = this.deps.store.findInbox(this.inboxId);
    const imap = inbox?.imap;
    if (!inbox || !imap || inbox.status !== 'active' || this.stopped) return;
    this.set({ ...this.carry(), status: 'connecting' });
    const at = { protocol: 'IMAP' as const, host: imap.host, port: imap.port };
    let pass: string;
    try {
      pass = this.deps.secrets.decrypt(imap.password_sealed);
    } catch {
      // A password sealed by another machine's key cannot be opened: say so, and wait for an edit.
      this.set({ status: 'error', error_code: 'password_unreadable', error: 'The stored IMAP password cannot be read on this machine. Enter it again in Settings → Mail accounts.' });
      return;
    }
    const client = new ImapFlow({
      host: imap.host,
      port: imap.port,
      secure: imap.secure,
      auth: { user: imap.user, pass },
      logger: false,
      // Local test servers use self-signed certificates only when secure is chosen explicitly.
      tls: tlsFor(imap.host, imap.secure),
      emitLogs: false,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
    });
    this.client = client;
    let connected = false;
    client.on('error', (e: Error) => this.deps.log.warn('imap error', { inbox: this.inboxId, error: e.message }));
    client.on('close', () => {
      if (this.client === client) this.client = undefined;
      // A failed login closes too; that failure is handled (and worded) below, once.
      if (connected && !this.stopped) this.fail({ code: 'closed', message: `The IMAP server ${imap.host}:${imap.port} closed the connection.` });
    });
    client.on('exists', () => void this.sync());
    try {
      await client.connect();
      await client.mailboxOpen(imap.mailbox || 'INBOX');
      connected = true;
      this.failures = 0;
      await this.sync();
    } catch (e) {
      if (this.client === client) this.client = undefined;
      const words = describeMailError(e, at);
      this.deps.log.warn('imap connect failed', { inbox: this.inboxId, code: words.code, error: (e as Error).message });
      // Worded first: the close event that follows finds the retry already scheduled.
      this.fail(words);
      try {
        client.close();
      } catch {
        /* already closed */
      }
    }
  }

  /** What an error state keeps of the last good one. */
  private carry(): Partial<ImapState> {
    const { last_uid, synced_at } = this.state;
    return { ...(last_uid !== undefined ? { last_uid } : {}), ...(synced_at ? { synced_at } : {}) };
  }

  private fail(words: { code: string; message: string }) {
    if (this.stopped || this.retry) return;
    this.failures++;
    const wait = (this.deps.retryDelay ?? retryDelayMs)(this.failures);
    this.set({ ...this.carry(), status: 'error', error: words.message, error_code: words.code, failures: this.failures, retry_in_ms: wait, next_retry_at: new Date(Date.now() + wait).toISOString() });
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, wait);
  }

  /** Fetches new messages; overlapping EXISTS events coalesce into one follow-up pass. */
  sync(): Promise<void> {
    if (this.syncing) {
      this.again = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      do {
        this.again = false;
        await this.syncOnce();
      } while (this.again && !this.stopped);
    })().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const client = this.client;
    const inbox = this.deps.store.findInbox(this.inboxId);
    if (!client || !inbox?.imap || this.stopped) return;
    const mailboxName = inbox.imap.mailbox || 'INBOX';
    this.set({ ...this.state, status: 'syncing' });
    const db = this.deps.store.db;
    const mb = client.mailbox;
    if (!mb) return;
    const uidValidity = String(mb.uidValidity);
    const pos = db.prepare<unknown[], { uidvalidity: string; last_uid: number }>('SELECT uidvalidity, last_uid FROM mail_sync WHERE inbox_id = ? AND mailbox = ?').get(this.inboxId, mailboxName);
    // A new UIDVALIDITY means the server renumbered: fetch all again (dedup keeps it idempotent).
    let last = pos && pos.uidvalidity === uidValidity ? pos.last_uid : 0;
    const items: RawItem[] = [];
    let maxUid = last;
    if (mb.exists > 0) {
      for await (const msg of client.fetch(`${last + 1}:*`, { uid: true, source: true, flags: true }, { uid: true })) {
        if (msg.uid <= last || !msg.source) continue;
        items.push({ raw: msg.source, seen: msg.flags?.has('\\Seen') ?? false, source: `imap:${mailboxName}/${msg.uid}` });
        maxUid = Math.max(maxUid, msg.uid);
      }
    }
    if (items.length) await this.deps.ingest(inbox, items);
    last = maxUid;
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO mail_sync (inbox_id, mailbox, uidvalidity, last_uid, synced_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (inbox_id, mailbox) DO UPDATE SET uidvalidity = excluded.uidvalidity, last_uid = excluded.last_uid, synced_at = excluded.synced_at`,
    ).run(this.inboxId, mailboxName, uidValidity, last, now);
    this.set({ status: 'idle', last_uid: last, synced_at: now });
    // Enter IDLE now rather than after imapflow's 15 s auto-idle delay, so new mail shows up at
    // once; the next command (our fetch on EXISTS) breaks IDLE by itself.
    if (!this.stopped && this.client === client) void client.idle().catch(() => {});
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    const c = this.client;
    this.client = undefined;
    await this.syncing?.catch(() => {});
    if (c) {
      try {
        await c.logout();
      } catch {
        c.close();
      }
    }
    this.set({ status: 'stopped' });
  }
}

import { ImapFlow } from 'imapflow';
import type { Logger, SecretBox } from '../../kernel/index';
import type { RawItem } from './importers';
import type { ImportReport } from './ingest';
import type { InboxRow, MailStore } from './store';

export interface ImapSyncDeps {
  store: MailStore;
  secrets: SecretBox;
  log: Logger;
  ingest(inbox: InboxRow, items: RawItem[]): Promise<ImportReport>;
  onState?(inboxId: string, state: ImapState): void;
}

export interface ImapState {
  status: 'connecting' | 'idle' | 'syncing' | 'error' | 'stopped';
  error?: string;
  last_uid?: number;
  synced_at?: string;
}

/**
 * Live sync of one inbox from IMAP with imapflow: fetches everything after the last seen UID,
 * then IDLEs (imapflow idles on a selected mailbox when no command runs) and fetches again on
 * every EXISTS. Reconnects with backoff; `stop()` logs out and cancels the reconnect timer.
 */
export class ImapSync {
  private client: ImapFlow | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private again = false;
  private backoff = 1_000;
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
    this.set({ status: 'connecting' });
    const client = new ImapFlow({
      host: imap.host,
      port: imap.port,
      secure: imap.secure,
      auth: { user: imap.user, pass: this.deps.secrets.decrypt(imap.password_sealed) },
      logger: false,
      // Local test servers use self-signed certificates only when secure is chosen explicitly.
      tls: { rejectUnauthorized: imap.secure && !/^(127\.0\.0\.1|localhost)$/.test(imap.host) },
      emitLogs: false,
    });
    this.client = client;
    client.on('error', (e: Error) => this.deps.log.warn('imap error', { inbox: this.inboxId, error: e.message }));
    client.on('close', () => {
      if (this.client === client) this.client = undefined;
      if (!this.stopped) this.scheduleReconnect('connection closed');
    });
    client.on('exists', () => void this.sync());
    try {
      await client.connect();
      await client.mailboxOpen(imap.mailbox || 'INBOX');
      this.backoff = 1_000;
      await this.sync();
    } catch (e) {
      this.set({ status: 'error', error: (e as Error).message });
      this.deps.log.warn('imap connect failed', { inbox: this.inboxId, error: (e as Error).message });
      try {
        client.close();
      } catch {
        /* already closed */
      }
    }
  }

  private scheduleReconnect(reason: string) {
    if (this.stopped || this.retry) return;
    this.set({ status: 'error', error: reason });
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, this.backoff);
    this.backoff = Math.min(this.backoff * 2, 60_000);
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
    const pos = db.prepare('SELECT uidvalidity, last_uid FROM mail_sync WHERE inbox_id = ? AND mailbox = ?').get(this.inboxId, mailboxName) as { uidvalidity: string; last_uid: number } | undefined;
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

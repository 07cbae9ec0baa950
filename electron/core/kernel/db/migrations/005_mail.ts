import type { Migration } from '../open';

/**
 * NeuralMail store (seed 002): inboxes, threads, messages (raw source kept, text + sanitised
 * HTML derived), FTS5 search, drafts, the idempotent outbox and IMAP sync positions.
 */
export const m005Mail: Migration = {
  version: 5,
  name: 'mail',
  up(db) {
    db.exec(`
      CREATE TABLE mail_inboxes (
        id         TEXT PRIMARY KEY,
        address    TEXT NOT NULL,
        name       TEXT,
        labels     TEXT NOT NULL DEFAULT '[]',
        status     TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','paused')),
        imap       TEXT,
        smtp       TEXT,
        created_at TEXT NOT NULL
      );

      -- seq orders threads by creation; list_threads cursors page over it so inserts never shift pages.
      CREATE TABLE mail_threads (
        seq          INTEGER PRIMARY KEY AUTOINCREMENT,
        id           TEXT NOT NULL UNIQUE,
        inbox_id     TEXT NOT NULL REFERENCES mail_inboxes(id) ON DELETE CASCADE,
        subject      TEXT NOT NULL DEFAULT '',
        norm_subject TEXT NOT NULL DEFAULT '',
        status       TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','closed','snoozed')),
        snooze_until TEXT,
        labels       TEXT NOT NULL DEFAULT '[]',
        participants TEXT NOT NULL DEFAULT '[]',
        first_at     TEXT NOT NULL,
        updated_at   TEXT NOT NULL,
        triage       TEXT
      );
      CREATE INDEX mail_threads_inbox ON mail_threads(inbox_id, seq);
      CREATE INDEX mail_threads_subject ON mail_threads(inbox_id, norm_subject, updated_at);

      CREATE TABLE mail_messages (
        rowid               INTEGER PRIMARY KEY,
        id                  TEXT NOT NULL UNIQUE,
        inbox_id            TEXT NOT NULL REFERENCES mail_inboxes(id) ON DELETE CASCADE,
        thread_id           TEXT NOT NULL REFERENCES mail_threads(id),
        dedup_key           TEXT NOT NULL,
        internet_message_id TEXT,
        in_reply_to         TEXT,
        refs                TEXT NOT NULL DEFAULT '[]',
        direction           TEXT NOT NULL CHECK (direction IN ('inbound','outbound')),
        from_addr           TEXT,
        to_addrs            TEXT NOT NULL DEFAULT '[]',
        cc_addrs            TEXT NOT NULL DEFAULT '[]',
        reply_to            TEXT NOT NULL DEFAULT '[]',
        subject             TEXT NOT NULL DEFAULT '',
        text                TEXT NOT NULL DEFAULT '',
        html                TEXT,
        remote_content      INTEGER NOT NULL DEFAULT 0,
        attachments         TEXT NOT NULL DEFAULT '[]',
        raw                 BLOB NOT NULL,
        created_at          TEXT NOT NULL,
        imported_at         TEXT NOT NULL,
        seen                INTEGER NOT NULL DEFAULT 0,
        source              TEXT,
        triage              TEXT,
        UNIQUE (inbox_id, dedup_key)
      );
      CREATE INDEX mail_messages_thread ON mail_messages(thread_id, created_at);
      CREATE INDEX mail_messages_mid ON mail_messages(inbox_id, internet_message_id);
      CREATE INDEX mail_messages_created ON mail_messages(inbox_id, created_at);

      -- Reverse links: which message names which Message-ID in In-Reply-To/References, so a
      -- parent that arrives after its replies still joins their thread.
      CREATE TABLE mail_refs (
        inbox_id   TEXT NOT NULL,
        ref        TEXT NOT NULL,
        message_id TEXT NOT NULL REFERENCES mail_messages(id) ON DELETE CASCADE,
        PRIMARY KEY (inbox_id, ref, message_id)
      );

      CREATE VIRTUAL TABLE mail_fts USING fts5(subject, participants, body, tokenize = 'unicode61 remove_diacritics 2');

      CREATE TABLE mail_drafts (
        id            TEXT PRIMARY KEY,
        thread_id     TEXT NOT NULL REFERENCES mail_threads(id) ON DELETE CASCADE,
        policy_id     TEXT NOT NULL,
        goal          TEXT NOT NULL,
        body          TEXT NOT NULL,
        body_sha      TEXT NOT NULL,
        risk_flags    TEXT NOT NULL DEFAULT '[]',
        cited         TEXT NOT NULL DEFAULT '[]',
        needs_approval INTEGER NOT NULL,
        approved_at   TEXT,
        generator     TEXT NOT NULL,
        status        TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','approved','sent','discarded')),
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL
      );
      CREATE INDEX mail_drafts_thread ON mail_drafts(thread_id, body_sha);

      -- One row per idempotency key, written before any SMTP traffic. 'sending' is set right
      -- before the SMTP transaction; a row found in 'sending' after a crash becomes 'uncertain'
      -- and is never resent automatically (a key must never deliver twice).
      CREATE TABLE mail_outbox (
        idempotency_key TEXT PRIMARY KEY,
        message_id      TEXT NOT NULL UNIQUE,
        thread_id       TEXT NOT NULL,
        inbox_id        TEXT NOT NULL,
        draft_id        TEXT,
        body_sha        TEXT NOT NULL,
        internet_message_id TEXT NOT NULL,
        envelope        TEXT NOT NULL,
        raw             BLOB NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('queued','sending','sent','failed','uncertain')),
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        last_error      TEXT,
        created_at      TEXT NOT NULL,
        sent_at         TEXT
      );
      CREATE INDEX mail_outbox_due ON mail_outbox(status, next_attempt_at);

      CREATE TABLE mail_sync (
        inbox_id    TEXT NOT NULL REFERENCES mail_inboxes(id) ON DELETE CASCADE,
        mailbox     TEXT NOT NULL,
        uidvalidity TEXT NOT NULL,
        last_uid    INTEGER NOT NULL DEFAULT 0,
        synced_at   TEXT,
        PRIMARY KEY (inbox_id, mailbox)
      );
    `);
  },
};

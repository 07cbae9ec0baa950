import type Database from 'better-sqlite3';
import type { Migration } from '../open';

/**
 * Inbox and vault write journal. Idempotent DDL (IF NOT EXISTS) because data dirs created while
 * 002 was still a reserved placeholder are already past version 2; the inbox domain re-applies
 * `inboxSchema` at start so those catch up too.
 */
export function inboxSchema(db: Database.Database): void {
  db.exec(`
    -- Vault writes (writeNote) journaled before the file changes, removed once committed to git.
    CREATE TABLE IF NOT EXISTS vault_pending (
      id         INTEGER PRIMARY KEY,
      path       TEXT NOT NULL,
      message    TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    -- The latest analysis of each inbox item, keyed by the file's content hash.
    CREATE TABLE IF NOT EXISTS inbox_analyses (
      path        TEXT PRIMARY KEY,
      hash        TEXT NOT NULL,
      analyzed_at TEXT NOT NULL,
      result      TEXT NOT NULL,
      notified    INTEGER NOT NULL DEFAULT 0
    );
    -- One executed (or undone) batch of inbox actions = one git commit.
    CREATE TABLE IF NOT EXISTS inbox_batches (
      id          TEXT PRIMARY KEY,
      kind        TEXT NOT NULL CHECK (kind IN ('execute', 'undo')),
      status      TEXT NOT NULL CHECK (status IN ('running', 'done', 'undone')),
      undo_of     TEXT REFERENCES inbox_batches(id),
      created_at  TEXT NOT NULL,
      finished_at TEXT,
      git_commit  TEXT,
      summary     TEXT NOT NULL DEFAULT '[]'
    );
    -- File steps of a batch, written before any file is touched; replayed at start-up.
    CREATE TABLE IF NOT EXISTS inbox_steps (
      batch_id    TEXT NOT NULL REFERENCES inbox_batches(id) ON DELETE CASCADE,
      seq         INTEGER NOT NULL,
      op          TEXT NOT NULL CHECK (op IN ('move', 'write')),
      src         TEXT,
      dst         TEXT NOT NULL,
      hash        TEXT NOT NULL,
      before_hash TEXT,
      data        BLOB,
      before_data BLOB,
      done        INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (batch_id, seq)
    );
  `);
}

export const m002Inbox: Migration = {
  version: 2,
  name: 'inbox analyses, action journal, vault write journal',
  up(db) {
    inboxSchema(db);
  },
};

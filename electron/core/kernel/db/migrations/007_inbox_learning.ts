import type Database from 'better-sqlite3';
import type { Migration } from '../open';

/**
 * Learning from review: every decision a person makes on an inbox item (accept, edit of the
 * destination, delete, merge, skip) is kept as a labelled example, and rule lines Mailroom
 * proposes after repeated edits are remembered with their fate. Idempotent DDL (IF NOT EXISTS),
 * so the inbox domain can re-apply it at start and the file stays self-contained.
 */
export function inboxLearningSchema(db: Database.Database): void {
  db.exec(`
    -- One labelled example per reviewed item; withdrawn_at is set when its batch is undone.
    CREATE TABLE IF NOT EXISTS inbox_examples (
      id                    INTEGER PRIMARY KEY,
      batch_id              TEXT,
      path                  TEXT NOT NULL,
      title                 TEXT NOT NULL,
      text                  TEXT NOT NULL,
      action                TEXT NOT NULL CHECK (action IN ('move', 'keep', 'delete', 'merge')),
      folder                TEXT,
      destination           TEXT,
      suggested_action      TEXT,
      suggested_destination TEXT,
      suggested_confidence  REAL,
      edited                INTEGER NOT NULL DEFAULT 0,
      origin                TEXT NOT NULL DEFAULT 'review',
      created_at            TEXT NOT NULL,
      withdrawn_at          TEXT
    );
    CREATE INDEX IF NOT EXISTS inbox_examples_batch ON inbox_examples(batch_id);
    CREATE INDEX IF NOT EXISTS inbox_examples_folder ON inbox_examples(folder);
    -- Rule lines proposed after repeated edits toward one folder; a dismissed one is not proposed again.
    CREATE TABLE IF NOT EXISTS inbox_rule_suggestions (
      id          INTEGER PRIMARY KEY,
      keyword     TEXT NOT NULL,
      folder      TEXT NOT NULL,
      line        TEXT NOT NULL,
      support     INTEGER NOT NULL,
      status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'dismissed')),
      created_at  TEXT NOT NULL,
      decided_at  TEXT,
      UNIQUE (keyword, folder)
    );
  `);
}

export const m007InboxLearning: Migration = {
  version: 7,
  name: 'inbox examples (learning from review) and suggested rules',
  up(db) {
    inboxLearningSchema(db);
  },
};

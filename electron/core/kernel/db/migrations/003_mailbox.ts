import type { Migration } from '../open';

/**
 * The session mailbox (seed 003): sessions ("tasks" as the seed names them), the messages queued
 * for them — soft-kept after delivery so the timeline can show them — and peer links.
 */
export const m003Mailbox: Migration = {
  version: 3,
  name: 'session mailbox',
  up(db) {
    db.exec(`
      CREATE TABLE tasks (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,
        working_dir TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done')),
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL,
        -- JSON: what the installer changed in working_dir, so removal can restore the original bytes
        install     TEXT
      );
      -- One mailbox per folder: two sessions would fight over CLAUDE.md and .mcp.json.
      CREATE UNIQUE INDEX tasks_working_dir ON tasks(working_dir);

      CREATE TABLE task_messages (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id      TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        sender       TEXT NOT NULL,
        body         TEXT NOT NULL,
        priority     TEXT NOT NULL DEFAULT 'normal' CHECK (priority IN ('normal', 'high')),
        created_at   TEXT NOT NULL,
        delivered_at TEXT
      );
      CREATE INDEX task_messages_timeline ON task_messages(task_id, id);
      -- Pending counts run on every send and every hook call: keep them to the undelivered rows.
      CREATE INDEX task_messages_pending ON task_messages(task_id) WHERE delivered_at IS NULL;

      CREATE TABLE task_links (
        task_id    TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        peer_id    TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        PRIMARY KEY (task_id, peer_id),
        CHECK (task_id <> peer_id)
      );
      CREATE INDEX task_links_peer ON task_links(peer_id);
    `);
  },
};

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, migrate, type Migration } from '../../../electron/core/kernel/db/open';
import { m001Core } from '../../../electron/core/kernel/db/migrations/001_core';
import { m005Mail } from '../../../electron/core/kernel/db/migrations/005_mail';

describe('migration 005_mail', () => {
  it('runs on a state DB at version 4 and creates the mail store, keeping existing data', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mig5-')), 'state.db');
    const db = openDatabase(file);
    m001Core.up(db);
    db.prepare("INSERT INTO settings (key, value) VALUES ('k', 'v')").run();
    db.pragma('user_version = 4');
    // Versions 2–4 belong to other domains; at version 4 only 005 may run.
    const earlier: Migration[] = [2, 3, 4].map((version) => ({ version, name: `v${version}`, up: () => { throw new Error(`migration ${version} must not run again`); } }));
    expect(migrate(db, [m001Core, ...earlier, m005Mail])).toBe(5);
    expect(db.pragma('user_version', { simple: true })).toBe(5);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table') AND name LIKE 'mail_%'").all() as Array<{ name: string }>).map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['mail_inboxes', 'mail_threads', 'mail_messages', 'mail_refs', 'mail_fts', 'mail_drafts', 'mail_outbox', 'mail_sync']));
    expect(db.prepare("SELECT value FROM settings WHERE key = 'k'").get()).toEqual({ value: 'v' });
    // The outbox's key is unique: the database itself refuses a second row for a key.
    db.prepare("INSERT INTO mail_inboxes (id, address, created_at) VALUES ('i', 'a@b.example', 'now')").run();
    const ins = db.prepare("INSERT INTO mail_outbox (idempotency_key, message_id, thread_id, inbox_id, body_sha, internet_message_id, envelope, raw, status, next_attempt_at, created_at) VALUES ('k1', ?, 't', 'i', 's', '<x>', '{}', x'00', 'queued', 'now', 'now')");
    ins.run('m1');
    expect(() => ins.run('m2')).toThrow(/UNIQUE/);
    db.close();
  });
});

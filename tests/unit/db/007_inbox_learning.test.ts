import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, migrate, type Migration } from '../../../electron/core/kernel/db/open';
import { stateMigrations } from '../../../electron/core/kernel/db';
import { m001Core } from '../../../electron/core/kernel/db/migrations/001_core';
import { inboxLearningSchema, m007InboxLearning } from '../../../electron/core/kernel/db/migrations/007_inbox_learning';

describe('migration 007 (inbox examples and suggested rules)', () => {
  it('is registered as number 7', () => {
    expect(stateMigrations[6]).toBe(m007InboxLearning);
    expect(m007InboxLearning.version).toBe(7);
  });

  it('runs on a state DB at version 6, keeping existing data; examples and suggestions are constrained', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mig7-')), 'state.db');
    const db = openDatabase(file);
    m001Core.up(db);
    db.prepare("INSERT INTO settings (key, value) VALUES ('k', 'v')").run();
    db.pragma('user_version = 6');
    const earlier: Migration[] = [2, 3, 4, 5, 6].map((version) => ({ version, name: `v${version}`, up: () => { throw new Error(`migration ${version} must not run again`); } }));
    expect(migrate(db, [m001Core, ...earlier, m007InboxLearning])).toBe(7);
    expect(db.prepare("SELECT value FROM settings WHERE key = 'k'").get()).toEqual({ value: 'v' });
    const ins = db.prepare('INSERT INTO inbox_examples (batch_id, path, title, text, action, folder, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    ins.run('b1', 'inbox/a.md', 'A', 'text', 'move', 'family/owen', 'now');
    expect(() => ins.run('b1', 'inbox/b.md', 'B', 'text', 'file', 'x', 'now')).toThrow(/CHECK/);
    const sug = db.prepare('INSERT INTO inbox_rule_suggestions (keyword, folder, line, support, created_at) VALUES (?, ?, ?, ?, ?)');
    sug.run('kiln', 'studio', '- anything about kiln → studio/', 3, 'now');
    expect(() => sug.run('kiln', 'studio', 'again', 4, 'now')).toThrow(/UNIQUE/);
    expect(() => db.prepare("UPDATE inbox_rule_suggestions SET status = 'maybe'").run()).toThrow(/CHECK/);
    // Re-applying the schema (the inbox domain does at start) keeps the rows.
    inboxLearningSchema(db);
    expect(db.prepare('SELECT count(*) AS n FROM inbox_examples').get()).toEqual({ n: 1 });
    db.close();
  });
});

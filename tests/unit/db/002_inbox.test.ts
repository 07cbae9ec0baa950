import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, stateMigrations } from '../../../electron/core/kernel/db';
import { inboxSchema, m002Inbox } from '../../../electron/core/kernel/db/migrations/002_inbox';
import { tempDir } from '../../helpers/owner';

const upTo = (v: number) => stateMigrations.filter((m) => m.version <= v);

describe('migration 002 (inbox journal)', () => {
  it('is registered as number 2', () => {
    expect(stateMigrations[1]).toBe(m002Inbox);
    expect(m002Inbox.version).toBe(2);
  });

  it('runs on a DB at version 1, keeping its settings, and journals batches with their file steps', () => {
    const db = openDatabase(path.join(tempDir(), 'state.db'), { migrations: upTo(1) });
    db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('theme', 'dark');
    migrate(db, upTo(2));
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare('SELECT value FROM settings WHERE key = ?').get('theme')).toEqual({ value: 'dark' });

    const at = '2026-01-01T00:00:00.000Z';
    db.prepare("INSERT INTO inbox_batches (id, kind, status, created_at) VALUES ('b1', 'execute', 'running', ?)").run(at);
    expect(() => db.prepare("INSERT INTO inbox_batches (id, kind, status, created_at) VALUES ('b2', 'execute', 'lost', ?)").run(at)).toThrow(/CHECK/);
    const step = db.prepare('INSERT INTO inbox_steps (batch_id, seq, op, src, dst, hash) VALUES (?, ?, ?, ?, ?, ?)');
    step.run('b1', 0, 'move', '/v/inbox/a.md', '/v/work/a.md', 'h');
    expect(() => step.run('b1', 0, 'move', '/v/inbox/b.md', '/v/work/b.md', 'h')).toThrow(/UNIQUE|PRIMARY/);
    expect(() => step.run('nope', 0, 'move', 'a', 'b', 'h')).toThrow(/FOREIGN KEY/);
    expect(() => step.run('b1', 1, 'copy', 'a', 'b', 'h')).toThrow(/CHECK/);
    db.prepare('INSERT INTO vault_pending (path, message, created_at) VALUES (?, ?, ?)').run('inbox/x.md', 'save', at);
    db.prepare('INSERT INTO inbox_analyses (path, hash, analyzed_at, result) VALUES (?, ?, ?, ?)').run('inbox/x.md', 'h', at, '{}');
    db.close();
  });

  it('re-applying the schema is harmless (data dirs made while 002 was a placeholder catch up at start)', () => {
    const db = openDatabase(path.join(tempDir(), 'state.db'), { migrations: upTo(2) });
    db.prepare("INSERT INTO inbox_batches (id, kind, status, created_at) VALUES ('b1', 'execute', 'done', 'x')").run();
    inboxSchema(db);
    expect(db.prepare('SELECT count(*) AS n FROM inbox_batches').get()).toEqual({ n: 1 });
    db.close();
  });
});

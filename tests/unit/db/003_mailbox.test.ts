import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, stateMigrations } from '../../../electron/core/kernel/db';
import { m003Mailbox } from '../../../electron/core/kernel/db/migrations/003_mailbox';
import { tempDir } from '../../helpers/owner';

const upTo = (v: number) => stateMigrations.filter((m) => m.version <= v);

describe('migration 003 (session mailbox)', () => {
  it('is registered as number 3', () => {
    expect(stateMigrations[2]).toBe(m003Mailbox);
    expect(m003Mailbox.version).toBe(3);
  });

  it('runs on a DB at version 2, keeping what was there, and its tables hold what the mailbox needs', () => {
    const file = path.join(tempDir(), 'state.db');
    const db = openDatabase(file, { migrations: upTo(2) });
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('theme', 'dark');

    migrate(db, upTo(3));
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    expect(db.prepare('SELECT value FROM settings WHERE key = ?').get('theme')).toEqual({ value: 'dark' });

    const at = '2026-01-01T00:00:00.000Z';
    const task = db.prepare('INSERT INTO tasks (id, name, working_dir, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    task.run('a', 'backend', '/w/a', at, at);
    task.run('b', 'frontend', '/w/b', at, at);
    expect(db.prepare('SELECT status FROM tasks WHERE id = ?').get('a')).toEqual({ status: 'queued' });
    expect(() => db.prepare("UPDATE tasks SET status = 'paused' WHERE id = 'a'").run()).toThrow(/CHECK/);
    expect(() => task.run('c', 'again', '/w/a', at, at)).toThrow(/UNIQUE/);

    const msg = db.prepare('INSERT INTO task_messages (task_id, sender, body, priority, created_at) VALUES (?, ?, ?, ?, ?)');
    msg.run('a', 'user', 'hi', 'high', at);
    msg.run('a', 'task:b', 'hello', 'normal', at);
    expect(() => msg.run('a', 'user', 'x', 'urgent', at)).toThrow(/CHECK/);
    expect(() => msg.run('nope', 'user', 'x', 'normal', at)).toThrow(/FOREIGN KEY/);
    expect(db.prepare('SELECT delivered_at FROM task_messages WHERE task_id = ?').all('a')).toEqual([{ delivered_at: null }, { delivered_at: null }]);

    db.prepare('INSERT INTO task_links (task_id, peer_id, created_at) VALUES (?, ?, ?)').run('a', 'b', at);
    expect(() => db.prepare('INSERT INTO task_links (task_id, peer_id, created_at) VALUES (?, ?, ?)').run('a', 'a', at)).toThrow(/CHECK/);

    // Removing a session takes its messages and links with it.
    db.prepare('DELETE FROM tasks WHERE id = ?').run('a');
    expect(db.prepare('SELECT COUNT(*) AS n FROM task_messages').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM task_links').get()).toEqual({ n: 0 });

    // Pending counts use the partial index.
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT COUNT(*) FROM task_messages WHERE task_id = 'b' AND delivered_at IS NULL").all() as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(' ')).toContain('task_messages_pending');
    db.close();
  });
});

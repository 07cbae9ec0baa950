import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrate, openDatabase, stateMigrations } from '../../../electron/core/kernel/db';
import { tempDir } from '../../helpers/owner';

describe('state DB migrations', () => {
  it('are numbered 1..n and bring a new DB to the latest version with WAL and foreign keys', () => {
    stateMigrations.forEach((m, i) => expect(m.version).toBe(i + 1));
    const file = path.join(tempDir(), 'state.db');
    const db = openDatabase(file, { migrations: stateMigrations });
    expect(db.pragma('user_version', { simple: true })).toBe(stateMigrations.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('001 creates the settings table on an empty DB', () => {
    const db = new Database(':memory:');
    migrate(db, stateMigrations.slice(0, 1));
    db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('theme', 'dark');
    expect(db.prepare('SELECT value FROM settings WHERE key = ?').get('theme')).toEqual({ value: 'dark' });
  });

  it('re-running is a no-op, and a DB from a newer Mailroom is refused with a clear error', () => {
    const file = path.join(tempDir(), 'state.db');
    openDatabase(file, { migrations: stateMigrations }).close();
    const db = openDatabase(file, { migrations: stateMigrations });
    expect(db.pragma('user_version', { simple: true })).toBe(stateMigrations.length);
    db.pragma(`user_version = ${stateMigrations.length + 5}`);
    db.close();
    expect(() => openDatabase(file, { migrations: stateMigrations })).toThrow(/newer than this Mailroom knows/);
  });

  it('a failing migration rolls back and leaves the version where it was', () => {
    const db = new Database(':memory:');
    const broken = [
      { version: 1, name: 'ok', up: (d: Database.Database) => d.exec('CREATE TABLE a (x)') },
      { version: 2, name: 'broken', up: (d: Database.Database) => d.exec('CREATE TABLE b (y); SELECT * FROM missing') },
    ];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
  });
});

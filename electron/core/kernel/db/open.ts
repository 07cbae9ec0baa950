import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MailroomError } from '../errors';
import { ensurePrivateFile } from '../fs';

const DB_SIDE_FILES = ['-wal', '-shm', '-journal'];

export interface Migration {
  /** 1, 2, 3 … — PRAGMA user_version after it ran. */
  version: number;
  name: string;
  up(db: Database.Database): void;
}

export interface OpenOptions {
  readonly?: boolean;
  /** Applied in order; each in its own transaction, bumping PRAGMA user_version. */
  migrations?: Migration[];
}

/** Opens a SQLite file with WAL, foreign keys and a busy timeout, and migrates it. */
export function openDatabase(file: string, opts: OpenOptions = {}): Database.Database {
  const onDisk = !opts.readonly && file !== ':memory:' && file !== '';
  if (onDisk) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // The DBs hold mail, memories and messages: 0600 whatever the umask. SQLite creates the
    // -wal and -shm files with the main file's mode, so the main file is created (or
    // tightened) first; files left 0644 by older versions are tightened too.
    ensurePrivateFile(file, DB_SIDE_FILES);
  }
  const db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  db.pragma('busy_timeout = 5000');
  if (!opts.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  if (onDisk) ensurePrivateFile(file, DB_SIDE_FILES);
  db.pragma('foreign_keys = ON');
  if (opts.migrations && !opts.readonly) migrate(db, opts.migrations, file);
  return db;
}

export function migrate(db: Database.Database, migrations: Migration[], label = 'database'): number {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered 1..n without gaps (found ${m.version} at ${i + 1})`);
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = sorted.length;
  if (current > latest) {
    throw new MailroomError(
      'schema_too_new',
      `${label} is at schema version ${current}, newer than this Mailroom knows (${latest}). Update Mailroom, or point it at another data dir.`,
    );
  }
  for (const m of sorted.slice(current)) {
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return latest;
}

/** The `n` of a `SELECT count(*) AS n …` query (0 when it returns no row). */
export function countRows(db: Database.Database, sql: string, ...params: unknown[]): number {
  return db.prepare<unknown[], { n: number }>(sql).get(...params)?.n ?? 0;
}

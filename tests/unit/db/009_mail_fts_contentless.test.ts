import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase, migrate } from '../../../electron/core/kernel/db/open';
import { stateMigrations } from '../../../electron/core/kernel/db';
import { m009MailFtsContentless } from '../../../electron/core/kernel/db/migrations/009_mail_fts_contentless';
import { MailStore } from '../../../electron/core/domains/mail/store';
import { splitMboxFile } from '../../../electron/core/domains/mail/importers';
import { ingest } from '../../../electron/core/domains/mail/ingest';
import { searchMessages } from '../../../electron/core/domains/mail/search';
import { generateMbox, vocabulary } from '../../../bench/_scale-gen';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'mig9-'));

async function importedAt(version: number, mbox: string): Promise<{ db: Database.Database; store: MailStore }> {
  const db = openDatabase(path.join(tmp(), 'state.db'));
  expect(migrate(db, stateMigrations.slice(0, version))).toBe(version);
  const store = new MailStore(db, () => Date.parse('2026-01-01T00:00:00Z'));
  db.prepare("INSERT INTO mail_inboxes (id, address, created_at) VALUES ('me', 'me@acme.example', 'now')").run();
  const r = await ingest(store, store.inbox('me'), splitMboxFile(mbox), { now: () => Date.parse('2026-01-01T00:00:00Z'), batch: 100, parseThread: false });
  expect(r.imported).toBeGreaterThan(300);
  return { db, store };
}

// Rare, mid-frequency and frequent words of the generated mail, a participant, and multi-word queries.
const words = vocabulary(12_000).words;
const queries = [...[0, 3, 11, 40, 150, 600, 2500, 7000].map((i) => words[i]!), `${words[5]} ${words[900]}`, `${words[2]} ${words[3]} ${words[4]}`, 'example', 'Re'];
const searchAll = (db: Database.Database) => queries.map((q) => searchMessages(db, { inboxId: 'me', query: q, topK: 20 }));

describe('migration 009 (contentless mail search index)', () => {
  it('is registered as number 9', () => {
    expect(stateMigrations[8]).toBe(m009MailFtsContentless);
    expect(m009MailFtsContentless.version).toBe(9);
  });

  it('runs on a state DB at version 8 with mail in it: every search answers the same, the index keeps no text, and deleting an inbox still empties it', async () => {
    const mbox = path.join(tmp(), 'mail.mbox');
    generateMbox(mbox, 400);
    const { db, store } = await importedAt(8, mbox);
    const before = searchAll(db);
    expect(before.filter((hits) => hits.length > 0).length).toBeGreaterThan(queries.length - 3);
    expect(migrate(db, stateMigrations.slice(0, 9))).toBe(9);
    expect(searchAll(db)).toEqual(before);
    // No second copy of the text: no content table, and the columns read back empty.
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'mail_fts_content'").get()).toBeUndefined();
    expect(db.prepare('SELECT count(*) AS n FROM mail_fts WHERE body IS NOT NULL').get()).toEqual({ n: 0 });

    // A fresh import at version 9 indexes the same: same hits and scores as the migrated index.
    const fresh = await importedAt(9, mbox);
    const strip = (all: ReturnType<typeof searchAll>) => all.map((hits) => hits.map(({ thread_id: _t, ...h }) => h));
    expect(strip(searchAll(fresh.db))).toEqual(strip(before));

    // Rows still delete by rowid (deleting the inbox leaves nothing to find).
    store.deleteInbox('me');
    expect(db.prepare('SELECT count(*) AS n FROM mail_fts').get()).toEqual({ n: 0 });
    expect(searchAll(db).every((hits) => hits.length === 0)).toBe(true);
    db.close();
    fresh.db.close();
  });
});

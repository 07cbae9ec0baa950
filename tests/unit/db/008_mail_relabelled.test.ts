import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, migrate } from '../../../electron/core/kernel/db/open';
import { stateMigrations } from '../../../electron/core/kernel/db';
import { m008MailRelabelled } from '../../../electron/core/kernel/db/migrations/008_mail_relabelled';

/** The read triage does before every on-device triage (MailUnderstanding.relabelExamples). */
const EXAMPLES = "SELECT id FROM mail_messages WHERE inbox_id = ? AND triage IS NOT NULL AND json_extract(triage, '$.relabelled') = 1 ORDER BY rowid DESC LIMIT 500";

describe('migration 008 (index of relabelled mail)', () => {
  it('is registered as number 8', () => {
    expect(stateMigrations[7]).toBe(m008MailRelabelled);
    expect(m008MailRelabelled.version).toBe(8);
  });

  it('runs on a state DB at version 7 with mail in it; the examples read uses it and returns the same rows', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mig8-')), 'state.db');
    const db = openDatabase(file);
    expect(migrate(db, stateMigrations.slice(0, 7))).toBe(7);
    db.prepare("INSERT INTO mail_inboxes (id, address, created_at) VALUES ('me', 'me@acme.example', 'now'), ('other', 'o@acme.example', 'now')").run();
    db.prepare("INSERT INTO mail_threads (id, inbox_id, first_at, updated_at) VALUES ('t', 'me', 'now', 'now'), ('u', 'other', 'now', 'now')").run();
    const ins = db.prepare("INSERT INTO mail_messages (id, inbox_id, thread_id, dedup_key, direction, raw, created_at, imported_at, triage) VALUES (?, ?, ?, ?, 'inbound', x'00', 'now', 'now', ?)");
    const triage = [null, '{"intent":"billing"}', '{"intent":"billing","relabelled":1}', '{"relabelled":0}', '{"intent":"ask","relabelled":1}'];
    for (let i = 0; i < 40; i++) ins.run(`m${i}`, i % 4 === 3 ? 'other' : 'me', i % 4 === 3 ? 'u' : 't', `k${i}`, triage[i % triage.length]);
    const before = db.prepare(EXAMPLES).all('me');
    expect(before.length).toBeGreaterThan(5);
    expect(migrate(db, stateMigrations.slice(0, 8))).toBe(8);
    expect(db.prepare(EXAMPLES).all('me')).toEqual(before);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${EXAMPLES}`).all('me') as Array<{ detail: string }>).map((r) => r.detail).join('\n');
    expect(plan).toContain('mail_messages_relabelled');
    // A later relabel is found through the index too.
    db.prepare("UPDATE mail_messages SET triage = '{\"intent\":\"ask\",\"relabelled\":1}' WHERE id = 'm0'").run();
    expect((db.prepare(EXAMPLES).all('me') as Array<{ id: string }>).map((r) => r.id)).toContain('m0');
    db.close();
  });
});

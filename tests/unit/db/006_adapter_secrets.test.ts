import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, migrate, type Migration } from '../../../electron/core/kernel/db/open';
import { m001Core } from '../../../electron/core/kernel/db/migrations/001_core';
import { m004Router } from '../../../electron/core/kernel/db/migrations/004_router';
import { m006AdapterSecrets } from '../../../electron/core/kernel/db/migrations/006_adapter_secrets';

describe('migration 006_adapter_secrets', () => {
  it('runs on a state DB at version 5, adds url_secrets to adapters and keeps existing adapters', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mig6-')), 'state.db');
    const db = openDatabase(file);
    m001Core.up(db);
    m004Router.up(db);
    db.prepare(
      `INSERT INTO mcp_adapters (id, name, transport, command, args, env, url, headers, created_at, updated_at)
       VALUES ('ad1', 'old', 'http', NULL, '[]', '[]', 'http://127.0.0.1:9/mcp', '[]', 'now', 'now')`,
    ).run();
    db.pragma('user_version = 5');
    const others: Migration[] = [2, 3, 4, 5].map((version) => ({ version, name: `v${version}`, up: () => { throw new Error(`migration ${version} must not run again`); } }));
    expect(migrate(db, [m001Core, ...others, m006AdapterSecrets])).toBe(6);
    expect(db.pragma('user_version', { simple: true })).toBe(6);
    expect(db.prepare("SELECT name, url, url_secrets FROM mcp_adapters WHERE id = 'ad1'").get()).toEqual({ name: 'old', url: 'http://127.0.0.1:9/mcp', url_secrets: '[]' });
    db.close();
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, stateMigrations } from '../../../electron/core/kernel/db';
import { m004Router } from '../../../electron/core/kernel/db/migrations/004_router';
import { tempDir } from '../../helpers/owner';

const upTo = (v: number) => stateMigrations.filter((m) => m.version <= v);

describe('migration 004 (MCP router)', () => {
  it('is registered as number 4', () => {
    expect(stateMigrations[3]).toBe(m004Router);
    expect(m004Router.version).toBe(4);
  });

  it('runs on a DB at version 3, keeping what was there; its tables hold adapters, ordered routes and the attempt log', () => {
    const file = path.join(tempDir(), 'state.db');
    const db = openDatabase(file, { migrations: upTo(3) });
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('theme', 'dark');

    migrate(db, upTo(4));
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    expect(db.prepare('SELECT value FROM settings WHERE key = ?').get('theme')).toEqual({ value: 'dark' });

    const at = '2026-01-01T00:00:00.000Z';
    const adapter = db.prepare('INSERT INTO mcp_adapters (id, name, transport, command, url, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    adapter.run('a1', 'Memory', 'stdio', 'npx', null, at, at);
    expect(db.prepare('SELECT idle_timeout_s, max_retries, args, env FROM mcp_adapters WHERE id = ?').get('a1')).toEqual({ idle_timeout_s: 300, max_retries: 3, args: '[]', env: '[]' });
    expect(() => adapter.run('a2', 'Memory', 'stdio', 'npx', null, at, at)).toThrow(/UNIQUE/);
    expect(() => adapter.run('a3', 'No command', 'stdio', null, null, at, at)).toThrow(/CHECK/);
    expect(() => adapter.run('a4', 'No url', 'http', null, null, at, at)).toThrow(/CHECK/);
    adapter.run('a5', 'Remote', 'http', null, 'http://127.0.0.1:9/mcp', at, at);

    const route = db.prepare('INSERT INTO route_rules (id, name, priority, trigger_conditions, adapter_id, target_tool_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    route.run('r1', 'low', 0, '{"always":true}', 'a1', 'create_entities', at, at);
    route.run('r2', 'high', 10, '{"always":true}', 'a1', 'create_entities', at, at);
    expect(() => route.run('r3', 'dangling', 0, '{}', 'nope', 't', at, at)).toThrow(/FOREIGN KEY/);
    expect(db.prepare('SELECT enabled, allow_fallback, mapper FROM route_rules WHERE id = ?').get('r1')).toEqual({ enabled: 1, allow_fallback: 0, mapper: 'template' });
    // An adapter in use cannot disappear from under its routes.
    expect(() => db.prepare("DELETE FROM mcp_adapters WHERE id = 'a1'").run()).toThrow(/FOREIGN KEY/);

    const dist = db.prepare('INSERT INTO distributions (run_id, item_key, item_title, route_id, adapter_id, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    dist.run('run1', 'inbox/a.md', 'A', 'r2', 'a1', 'ok', at);
    expect(() => dist.run('run1', 'inbox/a.md', 'A', 'r2', 'a1', 'maybe', at)).toThrow(/CHECK/);
    // The log outlives the route it mentions.
    db.prepare("DELETE FROM route_rules WHERE id = 'r2'").run();
    expect(db.prepare('SELECT route_id, status FROM distributions').get()).toEqual({ route_id: null, status: 'ok' });

    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT * FROM route_rules WHERE enabled = 1 ORDER BY priority DESC, created_at').all() as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(' ')).toContain('route_rules_order');
    db.close();
  });
});

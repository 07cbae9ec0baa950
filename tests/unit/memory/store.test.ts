import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore, parseMemory, renderMemory, type Memory } from '../../../electron/core/domains/memory';
import { rankMemories } from '../../../electron/core/domains/memory/search';
import { tempDir } from '../../helpers/owner';

const mem = (over: Partial<Memory>): Memory => ({
  id: 'm1',
  path: 'memory/m1.md',
  content: 'I prefer TypeScript',
  entities: [],
  tags: [],
  strength: 1,
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  reinforced: 0,
  ...over,
});

describe('memory notes', () => {
  it('round-trip through markdown with frontmatter, including awkward text', () => {
    const m = mem({ content: 'Key: "value" — with: colons\n---\nand a rule', entities: ['Amara Singh', 'C#'], tags: ['fact'], strength: 1.3, source: 'claude' });
    const back = parseMemory(m.path, renderMemory(m));
    expect(back).toEqual({ ...m, intent: undefined });
  });

  it('are written atomically into the vault memory/ folder with unique names', async () => {
    const vault = tempDir();
    const store = new MemoryStore(vault);
    const a = store.newPath('I prefer TypeScript', '2026-01-01T00:00:00.000Z');
    await store.write(mem({ ...a }), 'test');
    const b = store.newPath('I prefer TypeScript', '2026-01-01T00:00:00.000Z');
    expect(b.path).not.toBe(a.path);
    expect(fs.readdirSync(path.join(vault, 'memory'))).toEqual([path.basename(a.path)]);
    expect(store.list()[0]?.content).toBe('I prefer TypeScript');
    expect(store.count()).toBe(1);
  });

  it('ignore unreadable files instead of failing the whole list', () => {
    const vault = tempDir();
    fs.mkdirSync(path.join(vault, 'memory'));
    fs.writeFileSync(path.join(vault, 'memory', 'bad.md'), '---\n: : :\n---\nx');
    fs.writeFileSync(path.join(vault, 'memory', 'ok.md'), renderMemory(mem({ id: 'ok', path: 'memory/ok.md' })));
    expect(new MemoryStore(vault).list().map((m) => m.id)).toContain('ok');
  });
});

describe('memory search ranking', () => {
  const pool = [
    mem({ id: 'ts', content: 'I prefer TypeScript over JavaScript for new projects', tags: ['preference'], entities: ['TypeScript'] }),
    mem({ id: 'dentist', content: 'My dentist is Dr. Patel, appointments on Tuesdays', tags: ['fact'], entities: ['Patel'] }),
    mem({ id: 'db', content: 'We decided to use postgres for the billing service', tags: ['decision'], entities: ['postgres'], strength: 1.5 }),
  ];
  it('puts the memory that shares the query words first', () => {
    expect(rankMemories(pool, { query: 'what database did we pick for billing', limit: 5 })[0]?.memory.id).toBe('db');
    expect(rankMemories(pool, { query: 'dentist', limit: 5 })[0]?.memory.id).toBe('dentist');
  });
  it('requires every requested tag and entity, case-insensitively', () => {
    expect(rankMemories(pool, { query: '', tags: ['DECISION'], limit: 5 }).map((r) => r.memory.id)).toEqual(['db']);
    expect(rankMemories(pool, { query: 'typescript', entities: ['patel'], limit: 5 })).toEqual([]);
  });
  it('returns nothing for a query that matches nothing', () => {
    expect(rankMemories(pool, { query: 'quantum chromodynamics', limit: 5 })).toEqual([]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VaultIndex, type EntityPlace } from '../../../electron/core/domains/vault';
import { indexMigrations } from '../../../electron/core/domains/vault/store';
import { migrate, openDatabase } from '../../../electron/core/kernel/db/open';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-dict-'));
  dirs.push(d);
  return d;
};
const st = { mtimeMs: 1, size: 1 };
/** The dictionary as sorted plain data (list order is not meaningful). */
const plain = (m: Iterable<[string, EntityPlace[]]>) =>
  [...m].map(([k, v]) => [k, v.map((x) => `${x.path}|${x.folder}|${x.title}|${x.kind}`).sort()] as const).sort((a, b) => a[0].localeCompare(b[0]));
const note = (title: string, aliases: string[] = []) => `---\naliases: [${aliases.join(', ')}]\n---\n# ${title}\n\nText about ${title}.\n`;

describe('VaultIndex.nameDictionary answers from the index as it is', () => {
  it('equals a dictionary built from scratch after edits, renames, removals, a removed folder and changes made by another connection', () => {
    const dir = tmp();
    const file = path.join(dir, 'index.db');
    const index = new VaultIndex(file);
    const fresh = () => {
      const other = new VaultIndex(file);
      try {
        return plain(other.nameDictionary());
      } finally {
        other.close();
      }
    };
    index.upsert('people/ana.md', note('Ana Lima', ['Ana', 'my sister']), st);
    index.upsert('people/bo.md', note('Bo Chen', ['Bo']), st);
    index.upsert('work/atlas.md', note('Atlas', ['Project Atlas']), st);
    index.upsert('work/atlas-2.md', note('Atlas', []), st);
    expect(plain(index.nameDictionary())).toEqual(fresh());
    expect(index.nameDictionary().get('atlas')?.map((x) => x.path).sort()).toEqual(['work/atlas-2.md', 'work/atlas.md']);

    // A retitled note, a new alias, a removed note, a removed folder.
    index.upsert('work/atlas.md', note('Beacon', ['Project Beacon']), st);
    index.upsert('people/bo.md', note('Bo Chen', ['Bo', 'Bobby']), st);
    index.remove('work/atlas-2.md');
    expect(plain(index.nameDictionary())).toEqual(fresh());
    expect(index.nameDictionary().has('atlas')).toBe(false);
    expect(index.nameDictionary().get('bobby')?.[0]?.path).toBe('people/bo.md');
    index.removeUnder('people');
    expect(plain(index.nameDictionary())).toEqual(fresh());
    expect(index.nameDictionary().has('ana')).toBe(false);

    // The background indexer writes on its own connection and reports the paths it changed.
    const worker = new VaultIndex(file);
    worker.upsert('home/cat.md', note('Miso', ['the cat']), st);
    worker.upsert('work/atlas.md', note('Gamma', []), st);
    worker.close();
    index.touch(['home/cat.md', 'work/atlas.md']);
    expect(plain(index.nameDictionary())).toEqual(fresh());
    expect(index.nameDictionary().get('the cat')?.[0]?.path).toBe('home/cat.md');
    expect(index.nameDictionary().has('beacon')).toBe(false);

    // A clear (a full rebuild) on the other connection, reported without paths.
    const w2 = new VaultIndex(file);
    w2.clear();
    w2.upsert('x/only.md', note('Only One'), st);
    w2.close();
    index.touch();
    expect(plain(index.nameDictionary())).toEqual([['only one', ['x/only.md|x|Only One|title']]]);
    index.close();
  });

  it("reads a name's title and alias rows through the (name, kind) index, also on an index.db made before it (migration 3)", () => {
    const file = path.join(tmp(), 'index.db');
    const db = openDatabase(file);
    expect(migrate(db, indexMigrations.slice(0, 2))).toBe(2);
    db.close();
    const old = new VaultIndex(file);
    // One note titled with a name many other notes mention.
    old.upsert('people/ivan.md', note('Ivan Petrov'), st);
    for (let i = 0; i < 300; i++) old.upsert(`log/day-${i}.md`, `# Day ${i}\n\nMet Ivan Petrov about the plan.\n`, st);
    old.close();
    const index = new VaultIndex(file);
    try {
      expect(index.db.pragma('user_version', { simple: true })).toBe(indexMigrations.length);
      expect(index.nameDictionary().get('ivan petrov')).toEqual([{ path: 'people/ivan.md', folder: 'people', title: 'Ivan Petrov', kind: 'title' }]);
      expect(index.nameDictionary().has('ivan petrov')).toBe(true);
      expect(index.nameDictionary().has('day 7')).toBe(true);
      expect(index.nameDictionary().has('plan')).toBe(false);
      const plan = (index.db.prepare("EXPLAIN QUERY PLAN SELECT 1 FROM entities e WHERE e.name = ? AND e.kind IN ('title', 'alias') LIMIT 1").all('x') as Array<{ detail: string }>).map((r) => r.detail).join('\n');
      expect(plan).toContain('entities_name_kind (name=? AND kind=?)');
    } finally {
      index.close();
    }
  });
});

/**
 * A first build says "done" as soon as every note is written, before the FTS segments are merged:
 * searches answer at once (the merge blocks no reader), stopping the run afterwards ends the
 * worker's merge, and the index is whole and consistent whether or not the merge finished.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateVault } from '../../../bench/_scale-gen';
import { VaultIndex } from '../../../electron/core/domains/vault';
import { runIndex } from '../../../electron/core/domains/vault/indexer';
import { silentLogger } from '../../../electron/core/kernel/log';
import { tempDir } from '../../helpers/owner';

describe('a first build of the vault index', () => {
  it('is searchable when it reports done, and stopping it during the segment merge leaves a whole index', async () => {
    const root = tempDir('mailroom-ready-vault-');
    const gen = generateVault(root, 1500);
    const dbFile = path.join(tempDir('mailroom-ready-data-'), 'index.db');
    const index = new VaultIndex(dbFile);
    const run = runIndex({ index, dbFile, root, full: false, log: silentLogger(), onBatch: () => undefined });
    const report = await run.done;
    expect(report).toMatchObject({ scanned: 1500, indexed: 1500 });
    index.touch();
    const word = gen.vocab.words[5]!;
    const hits = index.search(word, { limit: 5 });
    expect(hits.length).toBe(5);
    await run.stop();
    index.close();
    const again = new VaultIndex(dbFile);
    try {
      expect(again.count()).toBe(1500);
      expect(() => again.db.exec("INSERT INTO notes_fts(notes_fts) VALUES('integrity-check')")).not.toThrow();
      expect(again.search(word, { limit: 5 }).map((h) => h.path)).toEqual(hits.map((h) => h.path));
    } finally {
      again.close();
    }
  }, 60_000);
});

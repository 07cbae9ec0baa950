import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { generateVault } from '../../../bench/_scale-gen';
import { VaultIndex } from '../../../electron/core/domains/vault';
import { callTool, startTestOwner, tempDir, type TestOwner } from '../../helpers/owner';

type Progress = { state: string; done: number; total: number };
type Search = { hits: Array<{ path: string; title: string; snippet: string }>; indexing?: { done: number; total: number; note: string } };

/** Resolves when `pred` holds for an event already seen or a later one; rejects after `ms`. */
function eventually(events: Progress[], subscribe: (f: () => void) => void, pred: (e: Progress) => boolean, ms = 60_000): Promise<Progress> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const hit = events.find(pred);
      if (hit) {
        clearTimeout(timer);
        resolve(hit);
      }
    };
    const timer = setTimeout(() => reject(new Error(`timed out; progress events seen: ${JSON.stringify(events)}`)), ms);
    subscribe(check);
    check();
  });
}

describe('the vault indexes in the background', () => {
  let owner: TestOwner | undefined;
  afterAll(async () => owner?.close());

  it('answers initialize, brain_search (with an indexing note), mailroom_info and /api/status while 3,000 notes index, and progress advances to done', async () => {
    const vaultDir = tempDir('mailroom-bigvault-');
    const dataDir = tempDir('mailroom-data-');
    generateVault(vaultDir, 3000);
    // Hold index.db's write lock (a real second SQLite connection) so the indexer is provably
    // still at work while the owner answers; released once the answers are in.
    new VaultIndex(path.join(dataDir, 'index.db')).close();
    const blocker = new Database(path.join(dataDir, 'index.db'));
    blocker.exec('BEGIN IMMEDIATE');
    const events: Progress[] = [];
    const listeners: Array<() => void> = [];
    try {
      owner = await startTestOwner({ vaultDir, dataDir, waitIndexed: false });
      await owner.hub((c) =>
        c.on('IndexProgress', (p: Progress) => {
          events.push(p);
          listeners.forEach((l) => l());
        }),
      );
      const client = await owner.mcp(); // initialize answered while indexing
      const during = await callTool<Search>(client, 'brain_search', { query: 'project' });
      expect(during.indexing).toBeDefined();
      expect(during.indexing!.done).toBeLessThan(3000);
      expect(during.indexing!.note).toMatch(/still being indexed/);
      const info = await callTool<{ index: Progress }>(client, 'mailroom_info');
      expect(info.index.state, JSON.stringify((await owner.api('GET', '/api/status')).body)).toBe('indexing');
      const st = await owner.api<{ index: Progress }>('GET', '/api/status');
      expect(st.body.index.state).toBe('indexing');
    } finally {
      blocker.exec('COMMIT');
      blocker.close();
    }
    const subscribe = (f: () => void) => listeners.push(f);
    const mid = await eventually(events, subscribe, (e) => e.state === 'indexing' && e.done > 0 && e.done < e.total);
    expect(mid.total).toBe(3000);
    await eventually(events, subscribe, (e) => e.state === 'ready' && e.done === 3000 && e.total === 3000);
    const client = await owner!.mcp();
    const after = await callTool<Search>(client, 'brain_search', { query: 'project' });
    expect(after.indexing).toBeUndefined();
    expect(after.hits.length).toBeGreaterThan(0);
    expect((await owner!.api<{ index: Progress }>('GET', '/api/status')).body.index).toMatchObject({ state: 'ready', done: 3000, total: 3000 });
  }, 90_000);
});

import fs from 'node:fs';
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
  let big: TestOwner | undefined;
  afterAll(async () => {
    await owner?.close();
    await big?.close();
  });

  it('answers every MCP initialize promptly while 10,000 notes index and the watcher sets up, then sees new files', async () => {
    // Watching a vault walks it and opens a watch per note; on the owner's thread that held
    // initialize for seconds at 10k notes. Now the indexer and the watcher each have a thread.
    const vaultDir = tempDir('mailroom-bigvault-');
    generateVault(vaultDir, 10_000);
    big = await startTestOwner({ vaultDir, waitIndexed: false });
    const init = async () => {
      const t = performance.now();
      const r = await fetch(big!.url + '/mcp', {
        method: 'POST',
        headers: { authorization: `Bearer ${big!.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
      expect(await r.text()).toContain('serverInfo');
      return performance.now() - t;
    };
    const during: number[] = [];
    const indexState = async () => (await big!.api<{ index: Progress }>('GET', '/api/status')).body.index.state;
    let state = await indexState();
    while (state !== 'ready' && state !== 'failed') {
      during.push(await init());
      await new Promise((r) => setTimeout(r, 25));
      state = await indexState();
    }
    expect(state).toBe('ready');
    expect(during.length).toBeGreaterThan(3);
    // Typically a few ms; bounds with room for a loaded 2-core CI machine (the owner used to be
    // blocked for seconds at a time while chokidar and the indexer shared its thread).
    const sorted = [...during].sort((a, b) => a - b);
    const shown = `initialize latencies while indexing (ms): ${during.map(Math.round).join(', ')}`;
    expect(sorted[Math.floor(sorted.length / 2)], shown).toBeLessThan(500);
    expect(sorted[sorted.length - 1], shown).toBeLessThan(2500);
    await big.core.whenIndexed(); // the watcher is ready
    fs.writeFileSync(path.join(vaultDir, 'fresh-note.md'), '# Fresh\n\nzqfreshwatchmarker\n');
    const client = await big.mcp();
    const deadline = Date.now() + 30_000;
    let hits = 0;
    while (!hits && Date.now() < deadline) {
      hits = (await callTool<Search>(client, 'brain_search', { query: 'zqfreshwatchmarker' })).hits.length;
      if (!hits) await new Promise((r) => setTimeout(r, 50));
    }
    expect(hits).toBe(1);
  }, 120_000);

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

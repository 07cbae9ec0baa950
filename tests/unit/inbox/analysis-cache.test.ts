import { describe, expect, it } from 'vitest';
import { AnalysisCache } from '../../../electron/core/domains/inbox/analysis-cache';
import type { AnalysisDetail } from '../../../electron/core/domains/inbox';

const detail = (dest: string): AnalysisDetail => ({
  item: { path: 'inbox/a.md', title: 'A', summary: '', entities: [], entity_locations: {}, suggested_action: 'move', destination: null, confidence: 0.5, reasoning: '', rules_matched: [] },
  evidence: [],
  votes: [],
  planned: dest,
});

describe('AnalysisCache', () => {
  it('computes an item once per key; concurrent requests share the computation; a new key computes again', async () => {
    const c = new AnalysisCache();
    let runs = 0;
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const compute = async () => {
      runs++;
      await gate;
      return detail(`f/${runs}.md`);
    };
    const a = c.get('inbox/a.md', 'h1|g1', compute);
    const b = c.get('inbox/a.md', 'h1|g1', compute);
    release();
    expect((await a).planned).toBe('f/1.md');
    expect(await b).toBe(await a);
    expect(runs).toBe(1);
    expect((await c.get('inbox/a.md', 'h1|g1', compute)).planned).toBe('f/1.md');
    // Another generation of the vault (or other bytes): analysed again.
    expect((await c.get('inbox/a.md', 'h1|g2', compute)).planned).toBe('f/2.md');
    expect(runs).toBe(2);
  });

  it('keeps no failed analysis, forgets items that left the inbox, and stays bounded', async () => {
    const c = new AnalysisCache(3);
    await expect(c.get('inbox/a.md', 'k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect((await c.get('inbox/a.md', 'k', async () => detail('x.md'))).planned).toBe('x.md');
    for (const n of ['b', 'c', 'd']) await c.get(`inbox/${n}.md`, 'k', async () => detail(`${n}.md`));
    expect(c.size).toBe(3);
    c.keepOnly(new Set(['inbox/d.md']));
    expect(c.size).toBe(1);
  });
});

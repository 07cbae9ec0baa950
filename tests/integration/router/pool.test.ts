import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../helpers/owner';
import { TEST_SERVER, alive, makeRouter, testServerAdapter, type Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const pidsInLog = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);

describe('client pool: one server process per adapter', () => {
  it('3 adapters and 100 concurrent distributions start exactly 3 processes, one per adapter', async () => {
    h = makeRouter();
    const s = h.router.service;
    const spawnLog = path.join(h.dataDir, 'spawns.txt');
    const adapters = ['A', 'B', 'C'].map((n) => s.createAdapter(testServerAdapter(`server ${n}`, { env: [{ key: 'MCP_TEST_SPAWN_LOG', value: spawnLog }] })));
    for (const [i, a] of adapters.entries()) {
      await s.createRoute({ name: `to ${a.name}`, adapter_id: a.id, tool: 'slow', condition: { field: 'tags', op: 'equals', value: `t${i}` }, mapping: { ms: 20, title: '{{ title }}' } });
    }
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => h!.router.routeItem({ title: `item ${i}`, content: 'x', tags: [`t${i % 3}`], entities: [] })),
    );
    expect(results.every((r) => r.status === 'ok')).toBe(true);

    // Every answer came from the one process of its adapter…
    const pidsByAdapter = new Map<string, Set<number>>();
    for (const r of results) {
      const pid = (r.result as { pid: number }).pid;
      const set = pidsByAdapter.get(r.matched!.adapter_id) ?? new Set();
      set.add(pid);
      pidsByAdapter.set(r.matched!.adapter_id, set);
    }
    expect([...pidsByAdapter.values()].map((x) => x.size)).toEqual([1, 1, 1]);
    // …and exactly three processes ever started: the servers' own log, and the pool's accounting.
    const started = pidsInLog(spawnLog);
    expect(started).toHaveLength(3);
    expect(new Set(started)).toEqual(new Set([...pidsByAdapter.values()].flatMap((x) => [...x])));
    expect(adapters.flatMap((a) => s.pool.pids(a.id)).sort()).toEqual([...started].sort());
    expect(s.pool.spawnedTotal()).toBe(3);
    expect(s.store.countDistributions()).toBe(100);
  });

  it('closes an idle adapter\'s server after its idle timeout, and starts a new one on the next request', async () => {
    h = makeRouter();
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('idle one', { idle_timeout_s: 0.4 }));
    await s.createRoute({ name: 'echo', adapter_id: a.id, tool: 'echo', mapping: { title: '{{ title }}' } });
    const first = await h.router.routeItem({ title: 'one', content: '', entities: [], tags: [] });
    const pid = (first.result as { pid: number }).pid;
    expect(s.pool.status(a.id)).toMatchObject({ state: 'running', pid });
    // Status changes reach the hub for the Routes page.
    expect(h.broadcasts.some((b) => b.event === 'RouterAdapterStatus' && (b.args[0] as { state: string; pid: number }).state === 'running')).toBe(true);

    await waitFor(() => alive(pid), (v) => v === false, 10_000, 'the idle server to exit');
    expect(s.pool.status(a.id)).toMatchObject({ state: 'idle', pid: null });
    expect(h.broadcasts.at(-1)).toMatchObject({ event: 'RouterAdapterStatus', args: [{ adapter_id: a.id, state: 'idle' }] });

    const second = await h.router.routeItem({ title: 'two', content: '', entities: [], tags: [] });
    expect((second.result as { pid: number }).pid).not.toBe(pid);
    expect(s.pool.spawnedTotal()).toBe(2);
  });

  it('restarts a server that crashed; the next distribution runs on a new process and the crash count clears', async () => {
    h = makeRouter({ deps: { backoffMs: [0] } });
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('crashy'));
    await s.createRoute({ name: 'crash once', adapter_id: a.id, tool: 'echo', mapping: { title: '{{ title }}' } });
    const before = await h.router.routeItem({ title: 'warm up', content: '', entities: [], tags: [] });
    const oldPid = (before.result as { pid: number }).pid;
    // Kill the server behind the pool's back, as a crash would.
    const crash = await s.pool.withClient(a.id, (c) => c.callTool({ name: 'crash', arguments: {} })).then(() => 'answered', (e: Error) => e.message);
    expect(crash).toMatch(/Connection closed/i);
    await waitFor(() => alive(oldPid), (v) => !v, 10_000, 'the crashed server to be gone');
    expect(s.pool.status(a.id)).toMatchObject({ state: 'idle', restarts: 1 });
    expect(s.pool.status(a.id).reason).toMatch(/exited unexpectedly/);

    const after = await h.router.routeItem({ title: 'after crash', content: '', entities: [], tags: [] });
    expect(after.status).toBe('ok');
    expect((after.result as { pid: number }).pid).not.toBe(oldPid);
    expect(s.pool.status(a.id)).toMatchObject({ state: 'running', restarts: 0 });
  });

  it('marks an adapter failed, with why, after its server dies 3 restarts in a row; then fails at once until reset', async () => {
    h = makeRouter({ deps: { backoffMs: [0] } });
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('dies on start', { args: [TEST_SERVER, '--exit-on-start'], max_retries: 5 }));
    await s.createRoute({ name: 'never', adapter_id: a.id, tool: 'echo' });
    const r = await h.router.routeItem({ title: 'doomed', content: '', entities: [], tags: [] });
    expect(r.status).toBe('failed');
    // The route's tool schema is looked up first: 4 starts (1 + 3 restarts) fail there, nothing is sent.
    expect(s.pool.pids(a.id)).toHaveLength(4);
    const st = s.pool.status(a.id);
    expect(st.state).toBe('failed');
    expect(st.reason).toMatch(/told to exit on start/);
    expect(st.reason).toMatch(/4 times in a row \(3 restarts allowed\)/);
    expect(s.listAdapters()[0]?.status.state).toBe('failed');

    const again = await h.router.routeItem({ title: 'still doomed', content: '', entities: [], tags: [] });
    expect(again.status).toBe('failed');
    expect(s.pool.pids(a.id)).toHaveLength(4); // no new process for a failed adapter
    expect(again.skipped[0]?.reason).toMatch(/marked failed/);

    const test = await s.testAdapter(a.id); // Test connection resets and tries again
    expect(test.ok).toBe(false);
    expect(s.pool.pids(a.id).length).toBeGreaterThan(4);
  });

  it('refuses a command that does not exist or is not executable, and says why, without spawning', async () => {
    h = makeRouter();
    const s = h.router.service;
    const missing = s.createAdapter({ name: 'missing', command: 'mailroom-no-such-server-xyz', args: [] });
    expect(missing.command_problem).toMatch(/not found on PATH/);
    const notExec = path.join(h.dataDir, 'server.sh');
    fs.writeFileSync(notExec, '#!/bin/sh\n', { mode: 0o644 });
    const plain = s.createAdapter({ name: 'not executable', command: notExec, args: [] });
    expect(plain.command_problem).toMatch(/not executable/);
    const spaced = s.createAdapter({ name: 'spaced', command: 'npx -y some-server', args: [] });
    expect(spaced.command_problem).toMatch(/contains spaces.*args list/);

    const t = await s.testAdapter(missing.id);
    expect(t.ok).toBe(false);
    expect(t.error?.message).toMatch(/not found on PATH/);
    expect(t.status).toMatchObject({ state: 'failed' });
    expect(s.pool.spawnedTotal()).toBe(0);
  });
});

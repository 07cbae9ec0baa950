import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, makeRouter, testServerAdapter, type Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const item = (title: string, extra: Record<string, unknown> = {}) => ({ title, content: `${title} body`, entities: [], tags: [], ...extra });

/** Drives the manual clock through each backoff sleep of a running distribution; returns its result. */
async function throughBackoff<T>(clock: ManualClock, run: Promise<T>, expected: number[]): Promise<T> {
  for (const ms of expected) {
    expect(await clock.nextSleep()).toBe(ms);
    clock.advance(ms);
  }
  return run;
}

describe('distribution: retries, backoff, priorities, and the attempt log', () => {
  it('retries a transient failure after 1 s then 2 s, succeeding on the third attempt; every attempt is logged', async () => {
    const clock = new ManualClock();
    h = makeRouter({ clock });
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('flaky'));
    const r0 = await s.createRoute({ name: 'flaky route', adapter_id: a.id, tool: 'flaky', mapping: { key: '{{ title }}', failures: 2 } });
    const r = await throughBackoff(clock, h.router.routeItem(item('k1')), [1000, 2000]);
    expect(r.status).toBe('ok');
    expect(r.attempts.map((x) => [x.status, x.retryable])).toEqual([['error', true], ['error', true], ['ok', false]]);
    expect(r.result).toMatchObject({ attempts: 3 });
    expect(clock.backoffs()).toEqual([1000, 2000]);

    const log = s.distributions({ run_id: r.run_id! }).reverse();
    expect(log.map((d) => [d.attempt, d.status])).toEqual([[1, 'error'], [2, 'error'], [3, 'ok']]);
    expect(log[0]).toMatchObject({ route_id: r0.id, adapter_id: a.id, tool: 'flaky', item_title: 'k1', args: { key: 'k1', failures: 2 } });
    expect(log[0]?.error).toMatch(/temporarily unavailable \(503\)/);
    expect(log[2]?.result).toMatchObject({ attempts: 3 });
    expect(h.broadcasts.filter((b) => b.event === 'RouterDistribution')).toHaveLength(3);
  });

  it('gives up after max retries (1 s, 2 s, 4 s) and marks the distribution failed without trying lower routes', async () => {
    const clock = new ManualClock();
    h = makeRouter({ clock });
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('always busy'));
    await s.createRoute({ name: 'first', priority: 10, adapter_id: a.id, tool: 'flaky', mapping: { key: 'x', failures: 99 } });
    const second = await s.createRoute({ name: 'second', priority: 5, adapter_id: a.id, tool: 'echo' });
    const r = await throughBackoff(clock, h.router.routeItem(item('busy')), [1000, 2000, 4000]);
    expect(r.status).toBe('failed');
    expect(r.attempts).toHaveLength(4);
    expect(r.error?.message).toMatch(/still failing after 4 attempts/);
    expect(r.candidates.map((c) => c.name)).toEqual(['first', 'second']);
    expect(s.distributions({ route_id: second.id })).toHaveLength(0);
  });

  it('fails at once on a non-retryable error', async () => {
    const clock = new ManualClock();
    h = makeRouter({ clock });
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('refuses'));
    await s.createRoute({ name: 'bad request', adapter_id: a.id, tool: 'fail', mapping: { message: 'invalid project id "{{ title }}"' } });
    const r = await h.router.routeItem(item('p-1'));
    expect(r.status).toBe('failed');
    expect(r.attempts).toEqual([expect.objectContaining({ attempt: 1, status: 'error', retryable: false })]);
    expect(r.error?.message).toMatch(/not retryable.*invalid project id "p-1"/);
    expect(clock.backoffs()).toEqual([]);
  });

  it('a hanging server times out (retryable), then the retry on the same process also times out and the route fails', async () => {
    const clock = new ManualClock();
    h = makeRouter({ clock });
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('hangs', { call_timeout_s: 0.3, max_retries: 1 }));
    await s.createRoute({ name: 'hang', adapter_id: a.id, tool: 'hang' });
    const r = await throughBackoff(clock, h.router.routeItem(item('stuck')), [1000]);
    expect(r.status).toBe('failed');
    expect(r.attempts.map((x) => x.retryable)).toEqual([true, true]);
    expect(r.attempts[0]?.error).toMatch(/timed out/);
    expect(s.pool.spawnedTotal()).toBe(1);
  });

  it('a server that crashes on every call is restarted 3 times, then the adapter is marked failed and the route stops', async () => {
    const clock = new ManualClock();
    h = makeRouter({ clock });
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('crasher', { max_retries: 5 }));
    await s.createRoute({ name: 'crash', adapter_id: a.id, tool: 'crash' });
    const r = await throughBackoff(clock, h.router.routeItem(item('boom')), [1000, 2000, 4000, 4000]);
    expect(r.status).toBe('failed');
    // 4 processes: the first and 3 restarts; the 5th attempt meets a failed adapter and stops.
    expect(s.pool.pids(a.id)).toHaveLength(4);
    expect(r.attempts.map((x) => x.retryable)).toEqual([true, true, true, true, false]);
    expect(r.attempts.at(-1)?.error).toMatch(/marked failed/);
    expect(s.pool.status(a.id).state).toBe('failed');
  });

  it('tries routes by descending priority, ties by creation order; disabled and non-matching routes are passed over', async () => {
    h = makeRouter();
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('echo'));
    const older = await s.createRoute({ name: 'older tie', priority: 5, adapter_id: a.id, tool: 'echo', mapping: { via: 'older' } });
    await s.createRoute({ name: 'newer tie', priority: 5, adapter_id: a.id, tool: 'echo', mapping: { via: 'newer' } });
    await s.createRoute({ name: 'disabled top', enabled: false, priority: 100, adapter_id: a.id, tool: 'echo', mapping: { via: 'disabled' } });
    await s.createRoute({ name: 'tasks only', priority: 50, adapter_id: a.id, tool: 'echo', condition: { field: 'intent', op: 'equals', value: 'task' }, mapping: { via: 'tasks' } });

    const plain = await h.router.routeItem(item('a note'));
    expect(plain.matched?.id).toBe(older.id);
    expect((plain.result as { args: { via: string } }).args.via).toBe('older');
    expect(plain.candidates.map((c) => c.name)).toEqual(['older tie', 'newer tie']);

    const task = await h.router.routeItem(item('a task', { intent: 'Task' }));
    expect((task.result as { args: { via: string } }).args.via).toBe('tasks');

    // Drag to reorder: the newer tie moves to the top.
    const order = s.listRoutes().map((r) => r.id);
    const newer = s.listRoutes().find((r) => r.name === 'newer tie')!;
    s.reorder({ ids: [newer.id, ...order.filter((id) => id !== newer.id)] });
    const after = await h.router.routeItem(item('again'));
    expect((after.result as { args: { via: string } }).args.via).toBe('newer');
  });

  it('skips a route whose arguments do not validate against the tool schema (nothing sent) and uses the next', async () => {
    h = makeRouter();
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('notes'));
    await s.createRoute({ name: 'broken mapping', priority: 10, adapter_id: a.id, tool: 'create_note', mapping: { title: '{{ title }}', content: '{{ content }}', meta: { priority: 'urgent' } } });
    const good = await s.createRoute({ name: 'good mapping', priority: 5, adapter_id: a.id, tool: 'create_note', mapping: { title: '{{ title }}', content: '{{ content }}', meta: { priority: 'high' } } });
    const r = await h.router.routeItem(item('Write report'));
    expect(r.status).toBe('ok');
    expect(r.matched?.id).toBe(good.id);
    expect(r.skipped).toEqual([expect.objectContaining({ name: 'broken mapping', reason: expect.stringMatching(/\/meta\/priority: must be one of low, normal, high/) })]);
    expect(s.distributions({ status: 'skipped' })).toHaveLength(1);

    const notes = await s.pool.withClient(a.id, (c) => c.callTool({ name: 'list_notes', arguments: {} }));
    expect((notes.structuredContent as { notes: unknown[] }).notes).toEqual([{ id: 'n1', title: 'Write report', content: 'Write report body', meta: { priority: 'high' } }]);
  });

  it('a dry run shows the matched route and arguments and sends nothing', async () => {
    h = makeRouter();
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('notes'));
    await s.createRoute({ name: 'notes', adapter_id: a.id, tool: 'create_note', mapping: { title: '{{ title | upper }}', content: '{{ content }}', tags: '{{ tags }}' } });
    const r = await h.router.routeItem(item('plan', { tags: ['#work'] }), { dryRun: true });
    expect(r).toMatchObject({ status: 'dry_run', args: { title: 'PLAN', content: 'plan body', tags: ['work'] }, validation: { valid: true, errors: [] } });
    expect(s.store.countDistributions()).toBe(0);
    const notes = await s.pool.withClient(a.id, (c) => c.callTool({ name: 'list_notes', arguments: {} }));
    expect((notes.structuredContent as { notes: unknown[] }).notes).toEqual([]);
  });

  it('an item nothing matches is reported unrouted', async () => {
    h = makeRouter();
    const s = h.router.service;
    const a = s.createAdapter(testServerAdapter('echo'));
    await s.createRoute({ name: 'mail only', adapter_id: a.id, tool: 'echo', condition: { field: 'source', op: 'equals', value: 'mail' } });
    const r = await h.router.routeItem(item('from a note', { source: 'note' }));
    expect(r.status).toBe('unrouted');
    expect(r.error?.message).toMatch(/No enabled route matches/);
  });
});

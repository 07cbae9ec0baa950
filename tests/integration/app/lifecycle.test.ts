import { createHook } from 'node:async_hooks';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/core/kernel/clock';
import type { Clock } from '../../../electron/core/kernel/types';
import { callTool, startTestOwner, tempDir, waitFor, type TestOwner } from '../../helpers/owner';
import { NODE, TEST_SERVER } from '../router/harness';
import { startSmtp } from '../mail/support';

/**
 * Everything a domain starts (timers, intervals, watchers, sockets, children) it must dispose in
 * stop(): after a full core has been exercised and stopped, none of our handles are left and
 * nothing touches the closed databases (the 20 s sendReply timer used to read the outbox after
 * stop() and crash with "The database connection is not open").
 */

/** systemClock, but the test can end every pending sleep at once (time passing, without waiting). */
class FlushableClock implements Clock {
  private pending = new Set<() => void>();
  now = () => systemClock.now();
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const inner = new AbortController();
    const onAbort = () => inner.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) inner.abort(signal.reason);
    let fire!: () => void;
    const early = new Promise<void>((r) => (fire = r));
    this.pending.add(fire);
    return Promise.race([systemClock.sleep(ms, inner.signal), early]).finally(() => {
      this.pending.delete(fire);
      inner.abort();
      signal?.removeEventListener('abort', onAbort);
    });
  }
  /** Sleeps still waiting (after stop() there must be none). */
  get waiting(): number {
    return this.pending.size;
  }
  /** Ends every pending sleep now, as if hours had passed. */
  fireAll(): void {
    for (const f of [...this.pending]) f();
  }
}

const TRACKED = new Set(['Timeout', 'TCPWRAP', 'TCPSERVERWRAP', 'PIPEWRAP', 'PIPESERVERWRAP', 'PROCESSWRAP', 'FSEVENTWRAP', 'STATWATCHER', 'SIGNALWRAP', 'UDPWRAP']);
const OURS = /[/\\]electron[/\\]core[/\\]/;

/** Handles created while our code is on the stack, until they are closed / cleared / fired. */
function trackOurHandles() {
  const live = new Map<number, { type: string; stack: string }>();
  const hook = createHook({
    init(id, type) {
      if (!TRACKED.has(type)) return;
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40;
      const stack = new Error().stack ?? '';
      Error.stackTraceLimit = limit;
      if (OURS.test(stack)) live.set(id, { type, stack: stack.split('\n').filter((l) => OURS.test(l)).slice(0, 4).join('\n') });
    },
    destroy(id) {
      live.delete(id);
    },
  });
  hook.enable();
  return { live, disable: () => hook.disable() };
}

const countByType = (list: string[]) => list.reduce<Record<string, number>>((m, t) => ((m[t] = (m[t] ?? 0) + 1), m), {});

const eml = (id: string, subject: string) =>
  Buffer.from(`From: Zoe <zoe@example.org>\r\nTo: me@acme.example\r\nSubject: ${subject}\r\nMessage-ID: <${id}@example.org>\r\nDate: Tue, 04 Mar 2025 10:00:00 +0000\r\n\r\nHello, can we meet on Friday?\r\n`);

let owner: TestOwner | undefined;
afterEach(async () => {
  await owner?.close().catch(() => undefined);
  owner = undefined;
});

describe('core lifecycle: stop() disposes everything every domain started', () => {
  it('leaves no handles of ours and never touches a closed database after stop()', async () => {
    const before = countByType(process.getActiveResourcesInfo());
    const smtp = await startSmtp();
    const clock = new FlushableClock();
    const handles = trackOurHandles();

    // After stop(): any use of a closed database, any unhandled rejection, any uncaught exception.
    const closedDbUse: string[] = [];
    const proto = Database.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
    const originals = { prepare: proto.prepare, exec: proto.exec, transaction: proto.transaction };
    for (const [name, fn] of Object.entries(originals)) {
      if (!fn) throw new Error(`better-sqlite3 has no Database.prototype.${name}`);
      proto[name] = function (this: { open: boolean; name: string }, ...args: unknown[]) {
        if (!this.open) closedDbUse.push(`${name} on closed ${this.name}: ${new Error().stack?.split('\n').slice(2, 5).join(' | ')}`);
        return fn.apply(this, args);
      };
    }
    const crashes: string[] = [];
    const onRejection = (e: unknown) => crashes.push(`unhandledRejection: ${String(e)}`);
    const onException = (e: unknown) => crashes.push(`uncaughtException: ${String(e)}`);
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);

    try {
      owner = await startTestOwner({
        clock,
        vaultFiles: { 'notes/swim.md': '# Swim meet\n\nDana drives on Friday.\n', 'inbox/call-dana.md': '---\ntags: [todo]\n---\n# Call Dana\n\nBefore Friday.\n' },
      });
      const o = owner;
      const mcp = await o.mcp();
      const hub = await o.hub();
      void hub;

      // vault search, inbox analyze, memory save
      const found = await callTool<{ hits: Array<{ path: string }> }>(mcp, 'brain_search', { query: 'swim meet' });
      expect(found.hits.length).toBeGreaterThan(0);
      await callTool(mcp, 'inbox_analyze', {});
      await callTool(mcp, 'save_memory', { content: 'Dana drives to the swim meet on Fridays.' });

      // session send
      const t = await o.api<{ id: string }>('POST', '/api/sessions', { name: 'life', working_dir: tempDir('mailroom-wd-') });
      expect((await o.api('POST', `/api/sessions/${t.body.id}/messages`, { body: 'hello session' })).status).toBe(200);

      // router call through a real MCP server child
      const a = await o.api<{ id: string }>('POST', '/api/mcp-adapters', { name: 'Tasks', command: NODE, args: [TEST_SERVER] });
      await o.api('POST', '/api/routes', { adapter_id: a.body.id, tool: 'create_note', name: 'All', mapping: { title: '{{ title }}', content: '{{ content }}' } });
      const routed = await o.api<{ status: string }>('POST', '/api/router/route', { item: { title: 'A thought', content: 'no tags' } });
      expect(routed.body.status).toBe('ok');

      // mail import + send to a local SMTP server
      await o.api('POST', '/api/mail/inboxes', { id: 'me', address: 'me@acme.example' });
      await o.api('PATCH', '/api/mail/inboxes/me', { smtp: { host: '127.0.0.1', port: smtp.port, secure: false } });
      const up = await fetch(`${o.url}/api/mail/import?inbox=me&filename=a.eml`, { method: 'POST', headers: { authorization: `Bearer ${o.token}` }, body: eml('life1', 'Friday') });
      const report = (await up.json()) as { thread_ids: string[] };
      expect(up.status).toBe(200);
      const sent = await o.api<{ status: string }>('POST', `/api/mail/threads/${report.thread_ids[0]}/reply`, { body_or_draft_id: 'Friday works.', idempotency_key: 'life-1' });
      expect(sent.body.status).toBe('sent');
      await smtp.waitFor(1);

      await o.close();
      owner = undefined;

      // (b) Let "time pass" for everything that waits on the clock, then give callbacks turns to run.
      expect(clock.waiting).toBe(0);
      clock.fireAll();
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));

      // (a) Every handle our code created is closed, cleared or fired.
      await waitFor(
        () => [...handles.live.values()],
        (left) => left.length === 0,
        5_000,
        'our handles to close',
      ).catch(() => {
        throw new Error(`handles left after stop():\n${[...handles.live.values()].map((h) => `${h.type}\n${h.stack}`).join('\n---\n')}`);
      });
      await smtp.close();
      const after = await waitFor(
        () => countByType(process.getActiveResourcesInfo()),
        (now) => Object.entries(now).every(([type, n]) => n <= (before[type] ?? 0)),
        5_000,
        'active resources back to the baseline',
      ).catch(() => countByType(process.getActiveResourcesInfo()));
      for (const [type, n] of Object.entries(after)) expect({ type, n: Math.min(n, before[type] ?? 0) }).toEqual({ type, n });

      expect(closedDbUse).toEqual([]);
      expect(crashes).toEqual([]);
    } finally {
      handles.disable();
      Object.assign(proto, originals);
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
      await smtp.close().catch(() => undefined);
    }
  }, 60_000);
});

/**
 * Background work waits for requests in flight: whenNoInteractive resolves when the last one ends,
 * at once when none is, and after its cap when one never ends; an end counts once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { beginInteractive, interactiveInflight, whenNoInteractive } from '../../../electron/core/kernel/interactive';

const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => 'resolved' as const), new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);

describe('interactive requests and background work', () => {
  it('resolves when the last request ends, not before', async () => {
    const base = interactiveInflight();
    const a = beginInteractive();
    const b = beginInteractive();
    expect(interactiveInflight()).toBe(base + 2);
    const idle = whenNoInteractive(60_000);
    a();
    a(); // ending twice counts once
    expect(interactiveInflight()).toBe(base + 1);
    expect(await within(idle, 50)).toBe('pending');
    b();
    expect(await within(idle, 5_000)).toBe('resolved');
    expect(interactiveInflight()).toBe(base);
    expect(await within(whenNoInteractive(60_000), 1_000)).toBe('resolved');
  });

  it('gives up waiting after its cap', async () => {
    const end = beginInteractive();
    try {
      const t = performance.now();
      await whenNoInteractive(30);
      expect(performance.now() - t).toBeGreaterThanOrEqual(25);
    } finally {
      end();
    }
  });

  it('counts a real request from arrival until its response has gone (the HTTP transport does this)', async () => {
    let release!: () => void;
    let arrived!: () => void;
    const arrival = new Promise<void>((r) => (arrived = r));
    const server = http.createServer((req, res) => {
      res.once('close', beginInteractive());
      arrived();
      new Promise<void>((r) => (release = r)).then(() => res.end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = interactiveInflight();
      const reply = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`).then((r) => r.text());
      await arrival;
      expect(interactiveInflight()).toBe(base + 1);
      const idle = whenNoInteractive(60_000);
      expect(await within(idle, 100)).toBe('pending');
      release();
      expect(await reply).toBe('ok');
      expect(await within(idle, 5_000)).toBe('resolved');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

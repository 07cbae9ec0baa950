import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createHub, type Hub } from '../../../electron/core/transports/hub';
import { silentLogger } from '../../../electron/core/kernel/log';

describe('hub handshake timeout', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function hubOnPort(): Promise<{ hub: Hub; port: number }> {
    const hub = createHub({ log: silentLogger(), keepAliveMs: 25, handshakeTimeoutMs: 100 });
    const server = http.createServer();
    server.on('upgrade', (req, socket, head) => hub.handleUpgrade(req, socket, head));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    cleanups.push(async () => {
      await hub.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    });
    return { hub, port: (server.address() as AddressInfo).port };
  }

  it('closes a connection that never sends the handshake, and keeps one that did', async () => {
    const { hub, port } = await hubOnPort();
    const open = (url: string) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      });
    const silent = await open(`ws://127.0.0.1:${port}/hubs/mailbox`);
    const polite = await open(`ws://127.0.0.1:${port}/hubs/mailbox`);
    const acked = new Promise<void>((r) => polite.once('message', () => r()));
    polite.send('{"protocol":"json","version":1}\u001e');
    await acked;

    const closed = await new Promise<number>((r) => silent.once('close', (code) => r(code)));
    expect(closed).toBe(1002);
    // The handshaken connection outlives several sweeps: it receives keep-alive pings.
    const pings = await new Promise<number>((resolve) => {
      let n = 0;
      polite.on('message', () => ++n >= 3 && resolve(n));
    });
    expect(pings).toBe(3);
    expect(polite.readyState).toBe(WebSocket.OPEN);
    expect(hub.connectionCount()).toBe(1);
    polite.close();
  });
});

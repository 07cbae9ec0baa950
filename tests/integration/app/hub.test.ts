import { afterEach, describe, expect, it } from 'vitest';
import { HubConnectionBuilder, HubConnectionState, LogLevel } from '@microsoft/signalr';
import { resolveConfig, startOwner, type Owner } from '../../../electron/core/host';
import { silentLogger } from '../../../electron/core/kernel/log';
import { REPO_ROOT, startTestOwner, tempDir, waitForHubEvent, type TestOwner } from '../../helpers/owner';

describe('the SignalR hub with the official client', () => {
  const toClose: Array<{ close?: () => Promise<void>; stop?: () => Promise<void> }> = [];
  afterEach(async () => {
    for (const o of toClose.splice(0).reverse()) await (o.close ?? o.stop)!().catch(() => undefined);
  });

  it('invokes methods, gets errors in the contract shape, and receives broadcasts', async () => {
    const owner: TestOwner = await startTestOwner();
    toClose.push(owner);
    const a = await owner.hub();
    const b = await owner.hub();
    expect(((await a.invoke('Ping')) as { now: string }).now).toMatch(/^\d{4}-/);
    await expect(a.invoke('NoSuchMethod')).rejects.toThrow(/method_not_found/);
    const atB = waitForHubEvent(b, 'InboxChanged');
    owner.core.hub.broadcast('InboxChanged', 'analyzed', 2);
    expect(await atB).toEqual(['analyzed', 2]);
  });

  it('reconnects by itself after the owner restarts on the same port', async () => {
    const dataDir = tempDir();
    const vault = tempDir();
    const cfg = (port: number) => resolveConfig({ dataDir, vault, port, env: {}, appRoot: REPO_ROOT });
    let owner: Owner = await startOwner(cfg(0), { log: silentLogger() });
    const port = owner.http.port;
    const conn = new HubConnectionBuilder()
      .withUrl(owner.url + '/hubs/mailbox', { accessTokenFactory: () => owner.token })
      .withAutomaticReconnect([0, 100, 200, 400, 800, 1000, 1000, 1000, 1000, 1000])
      .configureLogging(LogLevel.None)
      .build();
    await conn.start();
    toClose.push(conn);
    const reconnecting = new Promise<void>((r) => conn.onreconnecting(() => r()));
    const reconnected = new Promise<void>((r) => conn.onreconnected(() => r()));
    await owner.stop();
    await reconnecting;
    owner = await startOwner(cfg(port), { log: silentLogger() });
    toClose.push(owner);
    await reconnected;
    expect(conn.state).toBe(HubConnectionState.Connected);
    const got = waitForHubEvent(conn, 'InboxChanged');
    owner.core.hub.broadcast('InboxChanged', 'after-restart', 1);
    expect(await got).toEqual(['after-restart', 1]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOwner, tempDir, waitFor, type TestOwner } from '../../helpers/owner';
import { rawExchange, statusOf, upgradeRequest } from './raw';

/** Request targets the URL parser rejects (an attacker's page can send these with `new WebSocket`). */
const BAD_TARGETS = ['//:99999', 'http://[', '//[', '//a:b@[::1', 'http://:0'];

describe('the HTTP layer survives hostile requests', () => {
  let owner: TestOwner;
  let port: number;
  let uiOwner: TestOwner;
  beforeAll(async () => {
    owner = await startTestOwner();
    port = owner.http.port;
    const ui = tempDir('mailroom-ui-');
    fs.writeFileSync(path.join(ui, 'index.html'), '<!doctype html><title>ui</title>');
    uiOwner = await startTestOwner({ staticDir: ui });
  });
  afterAll(async () => {
    await owner?.close();
    await uiOwner?.close();
  });

  const alive = async () => expect((await owner.api('GET', '/api/health')).status).toBe(200);

  it('answers a WebSocket upgrade to an unparsable target with 400, without a token, and keeps serving', async () => {
    for (const target of BAD_TARGETS) {
      const r = await rawExchange(port, upgradeRequest(target, port));
      expect(statusOf(r.text), target).toBe(400);
      expect(r.closed, target).toBe(true);
      await alive();
    }
    // With the token in the query too: still a 400, never a crash.
    const r = await rawExchange(port, upgradeRequest(`//:99999/hubs/mailbox?access_token=${owner.token}`, port));
    expect(statusOf(r.text)).toBe(400);
    await alive();
  });

  it('answers a plain request to an unparsable target with a 400 error shape', async () => {
    for (const target of BAD_TARGETS) {
      const r = await rawExchange(port, `GET ${target} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${owner.token}\r\nconnection: close\r\n\r\n`);
      expect(statusOf(r.text), target).toBe(400);
      expect(r.text).toContain('"code":"invalid_argument"');
    }
    await alive();
  });

  it('answers malformed percent-encoding with 4xx, never 500', async () => {
    const a = await owner.api<{ code: string; message: string }>('GET', '/api/mail/inboxes/%E0%A4%A');
    expect(a.status).toBe(400);
    expect(a.body.code).toBe('invalid_argument');
    expect(a.body.message).toMatch(/percent-encoding/);
    expect((await owner.api('GET', '/api/%E0%A4%A')).status).toBe(404);
    // Without a token: 401, not 500.
    const noToken = await fetch(`${owner.url}/api/mail/inboxes/%E0%A4%A`);
    expect(noToken.status).toBe(401);
    // The UI's static files (a build is served): '/%' is a 400.
    const ui = await fetch(`${uiOwner.url}/%?token=${uiOwner.token}`);
    expect(ui.status).toBe(400);
    expect(await ui.json()).toMatchObject({ code: 'invalid_argument' });
    const uiOk = await fetch(`${uiOwner.url}/some/client/route?token=${uiOwner.token}`);
    expect(uiOk.status).toBe(200);
  });

  it('treats a malformed token cookie as no token (401), not a 500', async () => {
    const r = await fetch(`${uiOwner.url}/index.html`, { headers: { cookie: 'mailroom_token=%E0%A4%A' } });
    expect(r.status).toBe(401);
    const api = await fetch(`${owner.url}/mcp`, { headers: { cookie: 'mailroom_token=%' } });
    expect(api.status).toBe(401);
  });

  it('maps a folder name the file system rejects (ENAMETOOLONG) to a 400 that says what to do', async () => {
    const r = await owner.api<{ code: string; message: string }>('POST', '/api/inbox/save', {
      content: 'hello there',
      processing_hints: { skip_inbox: true, category: 'a'.repeat(290) },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_argument');
    expect(r.body.message).toMatch(/too long/);
    await alive();
  });

  it('answers malformed HTTP with a 400 error shape and closes the socket', async () => {
    const r = await rawExchange(port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(statusOf(r.text)).toBe(400);
    expect(r.text).toContain('"code":"invalid_argument"');
    expect(r.closed).toBe(true);
    const bad = await rawExchange(port, `GET / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nbad header\r\n\r\n`);
    expect(statusOf(bad.text)).toBe(400);
    await alive();
  });

  it('survives clients that reset upgrade sockets mid-answer', async () => {
    const before = owner.core.hub.connectionCount();
    for (let i = 0; i < 50; i++) {
      const s = net.connect({ host: '127.0.0.1', port });
      s.on('error', () => undefined);
      await new Promise<void>((resolve) => s.once('connect', () => resolve()));
      // Alternate rejected (404/401) and accepted upgrades, then reset at once.
      const target = i % 3 === 0 ? '/nowhere' : i % 3 === 1 ? '/hubs/mailbox' : `/hubs/mailbox?access_token=${owner.token}`;
      s.write(upgradeRequest(target, port));
      s.resetAndDestroy();
    }
    await alive();
    await waitFor(() => owner.core.hub.connectionCount(), (n) => n === before, 10_000, 'reset hub connections to be gone');
  });
});

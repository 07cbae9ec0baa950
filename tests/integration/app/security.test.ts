import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestOwner, type TestOwner } from '../../helpers/owner';

/** Raw request so we control Host and Origin exactly as a rebinding attacker would. */
function raw(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, setHost: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function wsStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', () => undefined);
  });
}

describe('the owner guards every request', () => {
  let owner: TestOwner;
  let port: number;
  let host: string;
  beforeAll(async () => {
    owner = await startTestOwner();
    port = owner.http.port;
    host = `127.0.0.1:${port}`;
  });
  afterAll(async () => owner?.close());

  it('binds to 127.0.0.1 only', () => {
    expect(owner.url).toBe(`http://127.0.0.1:${port}`);
  });

  it('rejects a missing token with 401 and the error shape', async () => {
    const r = await raw(port, '/api/health', { host });
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body)).toMatchObject({ code: 'unauthorized' });
  });

  it('rejects a wrong token with 401, on REST, MCP and the hub', async () => {
    const bad = { host, authorization: 'Bearer nope' };
    expect((await raw(port, '/api/health', bad)).status).toBe(401);
    expect((await raw(port, '/mcp', { ...bad, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, 'POST')).status).toBe(401);
    expect((await raw(port, '/hubs/mailbox/negotiate?negotiateVersion=1', bad, 'POST')).status).toBe(401);
    expect(await wsStatus(`ws://127.0.0.1:${port}/hubs/mailbox?access_token=nope`)).toBe(401);
  });

  it('rejects a foreign Host with 403 even with the right token (DNS rebinding)', async () => {
    const r = await raw(port, '/api/health', { host: `evil.example:${port}`, authorization: `Bearer ${owner.token}` });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body)).toMatchObject({ code: 'forbidden' });
    expect(await wsStatus(`ws://127.0.0.1:${port}/hubs/mailbox?access_token=${owner.token}`, { host: 'evil.example' })).toBe(403);
  });

  it('rejects a foreign Origin with 403', async () => {
    const r = await raw(port, '/api/health', { host, origin: 'https://evil.example', authorization: `Bearer ${owner.token}` });
    expect(r.status).toBe(403);
    expect(await wsStatus(`ws://127.0.0.1:${port}/hubs/mailbox?access_token=${owner.token}`, { origin: 'https://evil.example' })).toBe(403);
  });

  it('accepts its own Host and Origin, by IP or localhost', async () => {
    const auth = { authorization: `Bearer ${owner.token}` };
    expect((await raw(port, '/api/health', { host, origin: `http://${host}`, ...auth })).status).toBe(200);
    expect((await raw(port, '/api/health', { host: `localhost:${port}`, origin: `http://localhost:${port}`, ...auth })).status).toBe(200);
  });

  it('answers unknown API routes with a not_found error shape', async () => {
    const r = await owner.api<{ code: string; message: string }>('GET', '/api/nope');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });

  it('turns ?token= into an HttpOnly SameSite cookie for the UI, with a strict CSP', async () => {
    const r = await raw(port, `/?token=${owner.token}`, { host });
    expect(r.headers['set-cookie']?.[0]).toMatch(/mailroom_token=.*HttpOnly; SameSite=Strict/);
    const cookie = r.headers['set-cookie']?.[0]?.split(';')[0] ?? '';
    // Asset requests then carry the cookie only.
    const asset = await raw(port, '/index.html', { host, cookie });
    expect(asset.status).not.toBe(401);
    expect((await raw(port, '/index.html', { host })).status).toBe(401);
  });
});

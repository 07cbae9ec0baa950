import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestOwner, type TestOwner } from '../../helpers/owner';

const RS = '\u001e';
const HANDSHAKE = `{"protocol":"json","version":1}${RS}`;

interface RawHub {
  ws: WebSocket;
  messages: string[];
  closed: Promise<{ code: number; reason: string }>;
}

/** A raw WebSocket on the hub (no SignalR client), so a test can send any frame. */
async function rawHub(owner: TestOwner, handshake: boolean): Promise<RawHub> {
  const ws = new WebSocket(`ws://127.0.0.1:${owner.http.port}/hubs/mailbox?access_token=${owner.token}`);
  const messages: string[] = [];
  ws.on('message', (d) => messages.push(d.toString()));
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_q, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  if (handshake) {
    const ack = new Promise<void>((resolve) => ws.once('message', () => resolve()));
    ws.send(HANDSHAKE);
    await ack;
    expect(messages[0]).toBe(`{}${RS}`);
  }
  return { ws, messages, closed };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms))]);
}

/** JSON records that are not proper hub messages: each must end the connection with a protocol error. */
const BAD_RECORDS = [
  'null',
  '0',
  '42',
  '"text"',
  'true',
  '[]',
  '[{"type":1}]',
  '{"type":"1","target":"Ping","arguments":[]}',
  '{"type":1,"target":5,"arguments":[]}',
  '{"type":1,"target":"Ping","arguments":{"length":1}}',
  '{"type":1,"target":"Ping"}',
  '{"type":1,"target":"Ping","arguments":[],"invocationId":{}}',
  '{"type":4,"target":null,"arguments":[]}',
  '{"type":7,"error":5}',
  '{"protocol":null}',
];

describe('the hub survives malformed records', () => {
  let owner: TestOwner;
  beforeAll(async () => {
    owner = await startTestOwner();
  });
  afterAll(async () => owner?.close());

  /** The official client still connects and gets answers. */
  const alive = async () => {
    const hub = await owner.hub();
    expect(((await hub.invoke('Ping')) as { now: string }).now).toMatch(/^\d{4}-/);
    await hub.stop();
  };

  it('closes with a protocol error for JSON null or any non-message before the handshake, and keeps serving', async () => {
    for (const rec of BAD_RECORDS) {
      const h = await rawHub(owner, false);
      h.ws.send(rec + RS);
      const { code } = await withTimeout(h.closed, 10_000, rec);
      expect(code, rec).toBe(1002);
      // The client is told why (a handshake error response).
      expect(h.messages.join(''), rec).toMatch(/"error":".*json/i);
    }
    await alive();
  });

  it('closes with a protocol error (Close message + 1002) for non-messages after the handshake', async () => {
    for (const rec of BAD_RECORDS.filter((r) => r !== '{"protocol":null}')) {
      const h = await rawHub(owner, true);
      h.ws.send(rec + RS);
      const { code } = await withTimeout(h.closed, 10_000, rec);
      expect(code, rec).toBe(1002);
      const close = h.messages.slice(1).join('').split(RS).filter(Boolean).map((m) => JSON.parse(m) as { type: number; error?: string });
      expect(close.at(-1), rec).toMatchObject({ type: 7, error: expect.stringMatching(/Malformed/) });
    }
    const notJson = await rawHub(owner, true);
    notJson.ws.send(`{nope${RS}`);
    expect((await withTimeout(notJson.closed, 10_000, 'not json')).code).toBe(1003);
    await alive();
  });

  it('still answers well-formed records sent in the same frame before a bad one', async () => {
    const h = await rawHub(owner, true);
    h.ws.send(`{"type":1,"invocationId":"1","target":"Ping","arguments":[]}${RS}null${RS}`);
    expect((await withTimeout(h.closed, 10_000, 'close')).code).toBe(1002);
    // The completion for the first invocation can race the close; the point is the owner lives.
    await alive();
  });

  it('closes with 1009 when a record is never terminated, instead of buffering without bound', async () => {
    const h = await rawHub(owner, true);
    const mib = Buffer.alloc(1024 * 1024 - 16, 0x61).toString();
    h.ws.send(mib);
    h.ws.send(mib);
    const { code } = await withTimeout(h.closed, 15_000, '1009 close');
    expect(code).toBe(1009);
    expect(h.messages.join('')).toMatch(/larger than 1048576 bytes/);
    await alive();
  });

  it('closes with 1009 on a single frame over 1 MiB (maxPayload), before the handshake too', async () => {
    const h = await rawHub(owner, false);
    h.ws.send(Buffer.alloc(1024 * 1024 + 1, 0x61).toString());
    expect((await withTimeout(h.closed, 15_000, 'maxPayload close')).code).toBe(1009);
    await alive();
  });

  it('ignores newer protocol message types and keeps the official client working alongside', async () => {
    const hub = await owner.hub();
    const h = await rawHub(owner, true);
    h.ws.send(`{"type":8,"sequenceId":1}${RS}{"type":6}${RS}{"type":1,"invocationId":"7","target":"Ping","arguments":[]}${RS}`);
    await withTimeout(
      new Promise<void>((resolve) => h.ws.on('message', (d) => d.toString().includes('"invocationId":"7"') && resolve())),
      10_000,
      'completion',
    );
    expect(h.ws.readyState).toBe(WebSocket.OPEN);
    // Unknown methods and odd argument values get a completion error, not a crash.
    await expect(hub.invoke('NoSuchMethod', null, [1], { a: 1 })).rejects.toThrow(/method_not_found/);
    expect(((await hub.invoke('Ping', null, 'x', 1e308)) as { now: string }).now).toBeTruthy();
    h.ws.close();
  });

  it('keeps at most 1,000 unspent negotiate tokens (the oldest expire first)', async () => {
    const negotiate = async () => {
      const r = await fetch(`${owner.url}/hubs/mailbox/negotiate?negotiateVersion=1`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` } });
      return ((await r.json()) as { connectionToken: string }).connectionToken;
    };
    const first = await negotiate();
    for (let i = 0; i < 1_000; i++) await negotiate();
    const last = await negotiate();
    const status = (id: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${owner.http.port}/hubs/mailbox?id=${id}&access_token=${owner.token}`);
        ws.on('error', () => undefined);
        ws.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
      });
    expect(await status(first)).toBe(404);
    expect(await status(last)).toBe(101);
  });
});

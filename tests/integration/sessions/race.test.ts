import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startTestOwner, tempDir, type TestOwner } from '../../helpers/owner';
import type { SessionDto, SessionMessageDto } from '../../../shared/contract/sessions';

describe('check_inbox under a race', () => {
  let owner: TestOwner;
  beforeAll(async () => {
    owner = await startTestOwner();
  });
  afterAll(async () => owner?.close());

  it('two clients pulling concurrently while 1,000 messages arrive: each message delivered exactly once', async () => {
    const t = (await owner.api<SessionDto>('POST', '/api/sessions', { name: 'race', working_dir: tempDir() })).body;
    const hub = await owner.hub();
    const a = await owner.mcp({ sessionId: t.id });
    const b = await owner.mcp({ sessionId: t.id });
    const N = 1_000;
    let sending = true;
    const pull = async (c: typeof a) => {
      const got: number[] = [];
      let pulls = 0;
      for (;;) {
        const wasSending = sending;
        const r = await callTool<{ messages: SessionMessageDto[] }>(c, 'check_inbox');
        pulls++;
        got.push(...r.messages.map((m) => Number(m.body)));
        if (!wasSending && r.messages.length === 0) return { got, pulls };
      }
    };
    const pullers = Promise.all([pull(a), pull(b)]);
    const send = (async () => {
      for (let i = 0; i < N; i += 50) {
        await Promise.all(Array.from({ length: 50 }, (_, j) => hub.invoke('SendTaskMessage', t.id, String(i + j))));
      }
      sending = false;
    })();
    await send;
    const [ra, rb] = await pullers;
    const all = [...ra.got, ...rb.got];
    expect(all.length).toBe(N);
    expect(new Set(all).size).toBe(N);
    // Both really took part (otherwise this would not test a race).
    expect(ra.got.length).toBeGreaterThan(0);
    expect(rb.got.length).toBeGreaterThan(0);
    const timeline = (await owner.api<SessionMessageDto[]>('GET', `/api/sessions/${t.id}/messages?limit=5000`)).body;
    expect(timeline.filter((m) => m.delivered_at === null)).toEqual([]);
  }, 60_000);

  it('two clients racing over 1,000 already-waiting messages split them without overlap', async () => {
    const t = (await owner.api<SessionDto>('POST', '/api/sessions', { name: 'race2', working_dir: tempDir() })).body;
    const hub = await owner.hub();
    for (let i = 0; i < 1_000; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => hub.invoke('SendTaskMessage', t.id, String(i + j))));
    }
    const a = await owner.mcp({ sessionId: t.id });
    const b = await owner.mcp({ sessionId: t.id });
    const [ra, rb] = await Promise.all([callTool<{ messages: SessionMessageDto[] }>(a, 'check_inbox'), callTool<{ messages: SessionMessageDto[] }>(b, 'check_inbox')]);
    const ids = [...ra.messages, ...rb.messages].map((m) => m.id);
    expect(ids.length).toBe(1_000);
    expect(new Set(ids).size).toBe(1_000);
    // One of them got everything, the other nothing: delivery is all-or-nothing per call.
    expect([ra.messages.length, rb.messages.length].sort((x, y) => x - y)).toEqual([0, 1_000]);
  }, 60_000);
});

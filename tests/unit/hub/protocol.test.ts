import { describe, expect, it } from 'vitest';
import { RecordReader, RecordTooLargeError, parseHandshake, parseMessage } from '../../../electron/core/transports/hub/protocol';

const RS = '\u001e';
const b = (s: string) => Buffer.from(s, 'utf8');

describe('hub record reader', () => {
  it('reassembles records split across frames, including multi-byte characters split mid-sequence', () => {
    const r = new RecordReader(1024);
    const bytes = b(`{"a":"é€😀"}${RS}{"b":1}${RS}{"c"`);
    const out: string[] = [];
    for (let i = 0; i < bytes.length; i += 3) out.push(...r.push(bytes.subarray(i, i + 3)));
    expect(out).toEqual(['{"a":"é€😀"}', '{"b":1}']);
    expect(r.bufferedBytes).toBe(4);
    expect(r.push(b(`:2}${RS}`))).toEqual(['{"c":2}']);
    expect(r.bufferedBytes).toBe(0);
  });

  it('skips empty records', () => {
    expect(new RecordReader(16).push(b(`${RS}${RS}{}${RS}${RS}`))).toEqual(['{}']);
  });

  it('refuses an unterminated record past its limit instead of growing without bound', () => {
    const r = new RecordReader(1000);
    r.push(Buffer.alloc(600, 0x61));
    expect(() => r.push(Buffer.alloc(600, 0x61))).toThrow(RecordTooLargeError);
    // A record that ends within the limit is fine.
    const ok = new RecordReader(1000);
    ok.push(Buffer.alloc(500, 0x61));
    expect(ok.push(Buffer.concat([Buffer.alloc(499, 0x61), b(RS)]))[0]).toHaveLength(999);
    // Terminated but too long is refused too.
    const long = new RecordReader(1000);
    long.push(Buffer.alloc(900, 0x61));
    expect(() => long.push(Buffer.concat([Buffer.alloc(200, 0x61), b(RS)]))).toThrow(RecordTooLargeError);
  });

  it('does linear work: many small unterminated frames up to the limit take milliseconds', () => {
    const r = new RecordReader(1024 * 1024);
    const chunk = Buffer.alloc(256, 0x61);
    const t0 = performance.now();
    for (let i = 0; i < 4096; i++) r.push(chunk);
    expect(r.bufferedBytes).toBe(1024 * 1024);
    // The old reader re-split the whole string on each frame (quadratic: ~2 GB of scanning here).
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(() => r.push(chunk)).toThrow(RecordTooLargeError);
  });
});

describe('hub message validation', () => {
  it('accepts the json handshake and explains anything else', () => {
    expect(parseHandshake('{"protocol":"json","version":1}')).toMatchObject({ ok: true, protocol: 'json' });
    for (const bad of ['null', '5', '"json"', '[]', '{}', '{"protocol":5}', '{"protocol":"messagepack","version":1}', '{"protocol":"json","version":2}', 'nope']) {
      const r = parseHandshake(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.error, bad).toMatch(/json/i);
    }
  });

  it('never throws on JSON that is not a proper message', () => {
    const bad = [
      'null',
      '0',
      '-1.5e308',
      '"x"',
      'true',
      '[]',
      '[1,2]',
      '{}',
      '{"type":"1"}',
      '{"type":1.5}',
      '{"type":null}',
      '{"type":1}',
      '{"type":1,"target":5,"arguments":[]}',
      '{"type":1,"target":"Ping","arguments":{}}',
      '{"type":1,"target":"Ping","arguments":null}',
      '{"type":1,"target":"Ping","arguments":[],"invocationId":7}',
      '{"type":1,"target":"Ping","arguments":[],"streamIds":[1]}',
      '{"type":4,"target":{},"arguments":[]}',
      '{"type":3,"invocationId":[]}',
      '{"type":7,"error":{}}',
      '{not json',
    ];
    for (const text of bad) {
      const r = parseMessage(text);
      expect(r.ok, text).toBe(false);
    }
    expect(parseMessage('{"type":1,"target":"Ping","arguments":[],"invocationId":"1"}').ok).toBe(true);
    expect(parseMessage('{"type":6}').ok).toBe(true);
    // Newer protocol messages (e.g. stateful-reconnect Ack = 8) are ignored, not fatal.
    expect(parseMessage('{"type":8,"sequenceId":1}')).toEqual({ ok: true, msg: { type: 8 } });
  });
});

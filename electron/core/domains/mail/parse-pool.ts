import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../kernel/worker-entry';
import { present } from '../../kernel/errors';
import { parseRaw, type ParsedMessage } from './parse';

/** A window of raw messages for the parse thread. */
export interface ParseJob {
  id: number;
  now: number;
  items: Array<{ raw: Uint8Array; seen?: boolean }>;
}

export interface ParseReply {
  id: number;
  results: Array<{ ok: true; m: Omit<ParsedMessage, 'raw'> } | { ok: false; error: string }>;
}

export type ParseOutcome = { ok: true; m: ParsedMessage } | { ok: false; error: string };

export interface Parser {
  /** Parses a window of raw messages; one outcome per item, in order. */
  parse(items: Array<{ raw: Buffer; seen?: boolean }>, now: () => number): Promise<ParseOutcome[]>;
  close(): Promise<void>;
}

/** How many messages parse at once on this thread (mailparser is asynchronous). */
const INLINE_CONCURRENCY = 16;

/** Parsing on the calling thread (small imports, or when no worker entry exists). */
export const inlineParser: Parser = {
  async parse(items, now) {
    const out: ParseOutcome[] = [];
    for (let i = 0; i < items.length; i += INLINE_CONCURRENCY) {
      const part = items.slice(i, i + INLINE_CONCURRENCY);
      const results = await Promise.allSettled(part.map((it) => parseRaw(it.raw, { now, seen: it.seen })));
      for (const r of results) out.push(r.status === 'fulfilled' ? { ok: true, m: r.value } : { ok: false, error: String((r.reason as Error)?.message ?? r.reason) });
    }
    return out;
  },
  async close() {},
};

/**
 * A parse thread for a big import: windows are parsed there in order while the caller stores the
 * previous one. Its heap is capped (a runaway message fails that window, which then parses on the
 * caller's thread). Undefined when no worker entry is available; close() ends the thread.
 */
export function startParseThread(): Parser | undefined {
  const entry = workerEntry('mail-parser', './parse-worker.ts', import.meta.url);
  if (!entry) return undefined;
  const worker = new Worker(entry.file, { eval: entry.eval, name: 'mail-parser', resourceLimits: { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 16 } });
  const waiting = new Map<number, { resolve(r: ParseReply): void; reject(e: Error): void }>();
  let nextId = 0;
  let dead: Error | undefined;
  const fail = (e: Error) => {
    dead ??= e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  worker.on('message', (r: ParseReply) => {
    waiting.get(r.id)?.resolve(r);
    waiting.delete(r.id);
  });
  worker.on('error', (e) => fail(e));
  worker.on('exit', (code) => fail(new Error(`the mail parse thread stopped (exit code ${code})`)));
  return {
    async parse(items, now) {
      if (dead) return inlineParser.parse(items, now);
      const id = ++nextId;
      try {
        const reply = await new Promise<ParseReply>((resolve, reject) => {
          waiting.set(id, { resolve, reject });
          worker.postMessage({ id, now: now(), items: items.map((it) => ({ raw: it.raw, seen: it.seen })) } satisfies ParseJob);
        });
        return reply.results.map((r, i) => (r.ok ? { ok: true, m: { ...r.m, raw: present(items[i], 'the parsed item').raw } } : r));
      } catch {
        return inlineParser.parse(items, now);
      }
    },
    async close() {
      dead ??= new Error('closed');
      await worker.terminate();
    },
  };
}

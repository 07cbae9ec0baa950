/**
 * The mail parse thread (node:worker_threads): big imports parse here (parseRaw: the fast path or
 * mailparser) while the owner's thread stores the previous window, so parsing and SQLite run side
 * by side and the owner's event loop stays free. Replies carry everything but `raw` (the owner
 * still has the bytes). Bundled as its own entry (out/cli/mail-parser.mjs, out/main/mail-parser.js).
 */
import { parentPort } from 'node:worker_threads';
import { parseRaw } from './parse';
import type { ParseJob, ParseReply } from './parse-pool';

parentPort!.on('message', (job: ParseJob) => {
  void (async () => {
    const now = () => job.now;
    const results = await Promise.allSettled(job.items.map((it) => parseRaw(Buffer.from(it.raw.buffer, it.raw.byteOffset, it.raw.byteLength), { now, seen: it.seen })));
    const reply: ParseReply = {
      id: job.id,
      results: results.map((r) => {
        if (r.status === 'rejected') return { ok: false, error: String((r.reason as Error)?.message ?? r.reason) };
        const { raw: _raw, ...m } = r.value;
        return { ok: true, m };
      }),
    };
    parentPort!.postMessage(reply);
  })();
});

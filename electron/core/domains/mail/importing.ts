import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MailroomError } from '../../kernel/errors';
import { HubEvent } from '../../../../shared/contract/hub';
import { readSource, readUpload, readUploadFile, type RawItem } from './importers';
import { ingest, type ImportReport } from './ingest';
import type { MailPart } from './part';
import type { MailUnderstanding } from './understanding';

/** Imports touching at most this many threads answer after their triage; bigger ones triage in the background. */
const ARRIVAL_TRIAGE_INLINE = 200;

/** Largest upload the import route accepts (bigger mailboxes import from disk with the CLI). */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

/** Importing mail: files on disk (mbox, .eml, Maildir), uploads streamed to a private temp file, and what a sync fetched. */
export class MailImport {
  constructor(
    private readonly p: MailPart,
    private readonly understanding: MailUnderstanding,
  ) {}

  async importItems(inboxId: string, items: Iterable<RawItem>, onProgress?: (p: { phase: 'parse' | 'store'; done: number; total: number }) => void): Promise<ImportReport> {
    const ib = this.p.store.inbox(inboxId);
    const report = await ingest(this.p.store, ib, items, { now: () => this.p.core.clock.now(), log: this.p.core.log.child('mail.import'), onProgress });
    if (report.imported) {
      this.p.changed(ib.id, 'import', { imported: report.imported });
      // Triage on arrival: a small import (an IMAP poll, a few .eml) answers already triaged; a
      // big one is triaged in the background, the chips appearing as it goes.
      const inline = report.thread_ids.length <= ARRIVAL_TRIAGE_INLINE;
      const run = this.understanding.triageOnArrival(ib.id, report.thread_ids, { background: !inline });
      if (inline) await run;
    }
    return report;
  }

  importPath(inboxId: string, p: string, onProgress?: (p: { phase: 'parse' | 'store'; done: number; total: number }) => void): Promise<ImportReport> {
    const ib = this.p.store.inbox(inboxId);
    // Streams (an mbox is split as it is read); the UI hears the progress like an upload's.
    const progress = onProgress ?? ((x: { phase: 'parse' | 'store'; done: number; total: number }) => this.p.core.hub.broadcast(HubEvent.mailImportProgress, { import_id: null, inbox_id: ib.id, ...x }));
    return this.importItems(ib.id, readSource(p), progress);
  }

  importUpload(inboxId: string, buf: Buffer, filename: string, importId?: string): Promise<ImportReport> {
    this.p.store.inbox(inboxId);
    return this.importUploadItems(inboxId, [...readUpload(buf, filename)], importId);
  }

  private importUploadItems(inboxId: string, items: Iterable<RawItem>, importId?: string): Promise<ImportReport> {
    const progress = (p: { phase: 'parse' | 'store' | 'done'; done: number; total: number }) => this.p.core.hub.broadcast(HubEvent.mailImportProgress, { import_id: importId ?? null, inbox_id: inboxId, ...p });
    return this.importItems(inboxId, items, progress).then((report) => {
      // The last event of an import: the page ends its bar on this or on the HTTP reply, whichever is first.
      progress({ phase: 'done', done: report.total, total: report.total });
      return report;
    });
  }

  /**
   * An upload as it arrives: the inbox is checked first (404 before a byte is read), then the body
   * streams to a private temp file (0600 in <data-dir>/tmp, removed afterwards) rather than
   * being held in memory, and is validated by the same rule as `mailroom mail import`.
   */
  async importUploadStream(inboxId: string, body: AsyncIterable<Buffer>, filename: string, importId?: string, maxBytes = MAX_UPLOAD_BYTES): Promise<ImportReport> {
    const ib = this.p.store.inbox(inboxId);
    const dir = path.join(this.p.core.config.dataDir, 'tmp');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `upload-${crypto.randomBytes(8).toString('hex')}`);
    try {
      const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
      let size = 0;
      const limited = async function* () {
        for await (const chunk of body) {
          size += chunk.length;
          if (size > maxBytes) throw new MailroomError('too_large', `The upload is larger than ${maxBytes} bytes. Import a big mailbox from disk instead: mailroom mail import PATH --inbox ${ib.id}.`, { max_bytes: maxBytes }, 413);
          yield chunk;
        }
      };
      await pipeline(limited, out);
      // Validated up front (a non-mail file is an error before anything is stored), then streamed.
      const items = readUploadFile(file, filename);
      const first = items.next();
      const all = (function* () {
        if (!first.done) yield first.value;
        yield* items;
      })();
      return await this.importUploadItems(ib.id, all, importId);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }
}

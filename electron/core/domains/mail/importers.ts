import fs from 'node:fs';
import path from 'node:path';
import { MailroomError, invalidArgument } from '../../kernel/errors';

/** One raw message found in a source, with what the source says about it. */
export interface RawItem {
  raw: Buffer;
  seen?: boolean;
  source: string;
  /** Why this piece is not a message (empty, binary); reported as failed, never stored. */
  invalid?: string;
}

/** The codes a file that is not mail gets, from the CLI (import-path) and the upload route alike. */
export const ImportError = {
  empty: 'empty_file',
  notMail: 'not_a_message',
} as const;

// Header field names a message nearly always has in its header block.
const COMMON_HEADERS = /^(from|to|cc|date|subject|message-id|received|return-path|mime-version|delivered-to|reply-to|sender|content-type|x-[\w-]+)$/i;

/**
 * The one rule, for every import path, for whether bytes are worth handing to the parser: not
 * empty, not binary, and an RFC 5322 header block at the start (`Name: value` lines, including
 * at least one of the usual fields). Returns the MailroomError to report, or null when it looks
 * like mail.
 */
export function whyNotMail(buf: Buffer, label: string): MailroomError | null {
  if (buf.length === 0 || buf.toString('latin1').trim().length === 0) {
    return new MailroomError(
      ImportError.empty,
      `'${label}' is empty (${buf.length} bytes): there is nothing to import. Export the mailbox again, or pick the .mbox/.eml file itself rather than a placeholder.`,
      { file: label, bytes: buf.length },
      400,
    );
  }
  const head = buf.subarray(0, 64 * 1024);
  const nul = head.indexOf(0);
  const notMail = (why: string) =>
    new MailroomError(
      ImportError.notMail,
      `'${label}' is not an email message (${why}). Import .eml files (RFC 5322 messages), an mbox file, or a Maildir folder.`,
      { file: label, bytes: buf.length },
      400,
    );
  const text = head.toString('latin1');
  const headerEnd = text.search(/\r?\n\r?\n/);
  const block = headerEnd === -1 ? text : text.slice(0, headerEnd);
  if (nul !== -1 && (headerEnd === -1 || nul < headerEnd)) return notMail('it is binary: it has NUL bytes where the headers should be');
  const lines = block.split(/\r?\n/);
  // Every header line is `Name: value` or a folded continuation (starts with space/tab).
  if (!/^[\x21-\x39\x3b-\x7e]+:/.test(lines[0] ?? '')) return notMail('it does not start with a header line such as "From: …"');
  let known = false;
  for (const line of lines) {
    if (/^[ \t]/.test(line)) continue;
    const m = /^([\x21-\x39\x3b-\x7e]+):/.exec(line);
    if (!m) return notMail(`"${line.slice(0, 40)}" in its header block is not a header line`);
    if (COMMON_HEADERS.test(m[1] ?? '')) known = true;
  }
  if (!known) return notMail('its header block has none of From, To, Date, Subject, Message-ID');
  return null;
}

/** Throws the shared import error when the bytes are not mail. */
export function assertMail(buf: Buffer, label: string): void {
  const why = whyNotMail(buf, label);
  if (why) throw why;
}

const FROM_LINE = Buffer.from('\nFrom ');

/**
 * Splits an mbox (mboxo/mboxrd) into raw messages: a message starts at a `From ` line at the
 * start of the file or after a newline; `>From ` quoting is undone. MIME stays untouched —
 * each piece goes to mailparser.
 */
export function* splitMbox(buf: Buffer, label = 'mbox'): Generator<RawItem> {
  if (buf.length === 0) return;
  if (buf.subarray(0, 5).toString('latin1') !== 'From ') {
    throw invalidArgument(`${label} is not an mbox file (it does not start with a "From " line). Import .eml files or a Maildir folder instead.`);
  }
  let start = 0;
  let n = 0;
  while (start < buf.length) {
    let next = buf.indexOf(FROM_LINE, start);
    while (next !== -1 && !isSeparator(buf, next)) next = buf.indexOf(FROM_LINE, next + 1);
    const end = next === -1 ? buf.length : next + 1;
    const chunk = buf.subarray(start, end);
    const nl = chunk.indexOf(0x0a);
    if (nl !== -1) {
      const body = unquoteFrom(chunk.subarray(nl + 1));
      if (body.length > 0 && body.toString('latin1').trim().length > 0) {
        const source = `${label}#${++n}`;
        const why = whyNotMail(body, source);
        yield why ? { raw: body, source, invalid: why.message } : { raw: body, source };
      }
    }
    start = end;
  }
}

/**
 * splitMbox over a file read in chunks: never the whole file in memory (a 266 MB mailbox stays a
 * few MB of buffer plus the messages in flight). Same rules and pieces as splitMbox.
 */
export function* splitMboxFile(file: string, label = path.basename(file), chunkBytes = 4 * 1024 * 1024): Generator<RawItem> {
  const fd = fs.openSync(file, 'r');
  try {
    // One read buffer for the whole file: what is left of it moves to the front and the next
    // chunk is read in behind (it doubles only for a message bigger than what it holds). Every
    // message handed out is its own copy, so the buffer can be reused. A fresh chunk plus a
    // concatenated copy per read left ~15–30 MB of dead buffers waiting for the collector.
    let store = Buffer.allocUnsafeSlow(chunkBytes * 2);
    let buf: Buffer = store.subarray(0, 0);
    let eof = false;
    const more = (): boolean => {
      if (eof) return false;
      const left = buf.length;
      if (left + chunkBytes > store.length) {
        const bigger = Buffer.allocUnsafeSlow(Math.max(store.length * 2, left + chunkBytes));
        buf.copy(bigger, 0);
        store = bigger;
      } else if (left > 0 && buf.byteOffset !== store.byteOffset) buf.copy(store, 0);
      const n = fs.readSync(fd, store, left, chunkBytes, null);
      buf = store.subarray(0, left + n);
      if (n === 0) {
        eof = true;
        return false;
      }
      return true;
    };
    more();
    if (buf.length === 0) return;
    if (buf.subarray(0, 5).toString('latin1') !== 'From ') {
      throw invalidArgument(`${label} is not an mbox file (it does not start with a "From " line). Import .eml files or a Maildir folder instead.`);
    }
    let n = 0;
    let from = 1;
    for (;;) {
      // The next separator after the current message's own "From " line, with its whole line in the buffer.
      let next = buf.indexOf(FROM_LINE, from);
      while (next !== -1 && (buf.indexOf(0x0a, next + 1) !== -1 || eof) && !isSeparator(buf, next)) next = buf.indexOf(FROM_LINE, next + 1);
      if (!eof && (next === -1 || buf.indexOf(0x0a, next + 1) === -1)) {
        // Need more bytes: no separator yet, or a candidate whose line is not complete yet.
        from = next !== -1 ? next : Math.max(1, buf.length - FROM_LINE.length);
        more();
        continue;
      }
      const end = next === -1 ? buf.length : next + 1;
      const chunk = buf.subarray(0, end);
      const nl = chunk.indexOf(0x0a);
      if (nl !== -1) {
        const body = Buffer.from(unquoteFrom(chunk.subarray(nl + 1)));
        if (body.length > 0 && body.toString('latin1').trim().length > 0) {
          const source = `${label}#${++n}`;
          const why = whyNotMail(body, source);
          yield why ? { raw: body, source, invalid: why.message } : { raw: body, source };
        }
      }
      if (next === -1) return;
      buf = buf.subarray(end);
      from = 1;
    }
  } finally {
    fs.closeSync(fd);
  }
}

// A "From " line after a blank line starts a message; one directly after text only when it looks
// like an mbox postmark ("From addr Wed Jan  1 00:00:00 2025"), so unquoted body lines stay body.
function isSeparator(buf: Buffer, at: number): boolean {
  if (at === 0) return true;
  const prev = buf[at - 1];
  if (prev === 0x0a) return true;
  if (prev === 0x0d && at >= 2 && buf[at - 2] === 0x0a) return true;
  // Accept separators without a blank line only when the line looks like an mbox postmark.
  const lineEnd = buf.indexOf(0x0a, at + 1);
  const line = buf.subarray(at + 1, lineEnd === -1 ? buf.length : lineEnd).toString('latin1');
  return /^From \S+ +\w{3} \w{3} +\d{1,2} \d{2}:\d{2}(:\d{2})? (\d{4}|[A-Z]{3,4} \d{4})\s*$/.test(line);
}

function unquoteFrom(b: Buffer): Buffer {
  const s = b.toString('latin1');
  if (!/^>+From /m.test(s)) return trimTrailingNewline(b);
  return trimTrailingNewline(Buffer.from(s.replace(/^>(>*From )/gm, '$1'), 'latin1'));
}

function trimTrailingNewline(b: Buffer): Buffer {
  let end = b.length;
  while (end > 0 && (b[end - 1] === 0x0a || b[end - 1] === 0x0d)) end--;
  return b.subarray(0, end);
}

const looksLikeMbox = (head: Buffer) => head.subarray(0, 5).toString('latin1') === 'From ';

function fileStartsWithFrom(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(5);
    return fs.readSync(fd, head, 0, 5, 0) === 5 && looksLikeMbox(head);
  } finally {
    fs.closeSync(fd);
  }
}

function isMaildir(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'cur')) || fs.existsSync(path.join(dir, 'new'));
}

/** Every raw message under a path: an mbox file, an .eml file, a Maildir, or a folder of these. */
export function* readSource(p: string): Generator<RawItem> {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    throw invalidArgument(`Nothing to import at '${p}': no such file or folder.`);
  }
  if (st.isFile()) {
    // A single file is what the user named: one that is not mail is an error, as for an upload.
    // An mbox streams (never whole in memory); a single message is read whole.
    if (fileStartsWithFrom(p)) yield* splitMboxFile(p);
    else yield* readUpload(fs.readFileSync(p), path.basename(p));
    return;
  }
  if (isMaildir(p)) {
    for (const sub of ['new', 'cur']) {
      const d = path.join(p, sub);
      if (!fs.existsSync(d)) continue;
      for (const f of fs.readdirSync(d).sort()) {
        const file = path.join(d, f);
        if (!fs.statSync(file).isFile()) continue;
        // Maildir flags live after ":2," in the file name; S = seen.
        const flags = /:2,([A-Za-z]*)$/.exec(f)?.[1] ?? '';
        const raw = fs.readFileSync(file);
        const source = `maildir:${sub}/${f}`;
        // In a folder, a stray empty or binary file is reported as failed; the rest still imports.
        const why = whyNotMail(raw, source);
        yield why ? { raw, seen: flags.includes('S'), source, invalid: why.message } : { raw, seen: flags.includes('S'), source };
      }
    }
  }
  for (const entry of fs.readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(p, entry.name);
    if (entry.isDirectory()) {
      if (['cur', 'new', 'tmp'].includes(entry.name)) continue;
      yield* readSource(full);
    } else if (entry.isFile() && /\.(eml|mbox|mbx)$/i.test(entry.name)) {
      try {
        yield* readSource(full);
      } catch (e) {
        if (!(e instanceof MailroomError)) throw e;
        yield { raw: Buffer.alloc(0), source: entry.name, invalid: e.message };
      }
    }
  }
}

/**
 * Raw messages in one file (an upload, or the file `mailroom mail import` was given): an mbox, or
 * one message. An empty or non-mail file is an error (whyNotMail), the same for both paths.
 */
export function* readUpload(buf: Buffer, filename: string): Generator<RawItem> {
  if (looksLikeMbox(buf)) {
    yield* splitMbox(buf, filename);
    return;
  }
  assertMail(buf, filename);
  yield { raw: buf, source: filename };
}

/** readUpload over a file on disk (an upload spooled to a temp file): an mbox streams. */
export function* readUploadFile(file: string, filename: string): Generator<RawItem> {
  if (fileStartsWithFrom(file)) yield* splitMboxFile(file, filename);
  else yield* readUpload(fs.readFileSync(file), filename);
}

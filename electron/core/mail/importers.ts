import fs from 'node:fs';
import path from 'node:path';
import { invalidArgument } from '../common/errors';

/** One raw message found in a source, with what the source says about it. */
export interface RawItem {
  raw: Buffer;
  seen?: boolean;
  source: string;
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
      if (body.length > 0 && body.toString('latin1').trim().length > 0) yield { raw: body, source: `${label}#${++n}` };
    }
    start = end;
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
    const buf = fs.readFileSync(p);
    if (looksLikeMbox(buf)) yield* splitMbox(buf, path.basename(p));
    else yield { raw: buf, source: path.basename(p) };
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
        yield { raw: fs.readFileSync(file), seen: flags.includes('S'), source: `maildir:${sub}/${f}` };
      }
    }
  }
  for (const entry of fs.readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(p, entry.name);
    if (entry.isDirectory()) {
      if (['cur', 'new', 'tmp'].includes(entry.name)) continue;
      yield* readSource(full);
    } else if (entry.isFile() && /\.(eml|mbox|mbx)$/i.test(entry.name)) {
      yield* readSource(full);
    }
  }
}

/** Raw messages in an uploaded file (drag-dropped mbox or .eml). */
export function* readUpload(buf: Buffer, filename: string): Generator<RawItem> {
  if (looksLikeMbox(buf)) yield* splitMbox(buf, filename);
  else if (/^[\x21-\x39\x3b-\x7e]+:/.test(buf.subarray(0, 200).toString('latin1'))) yield { raw: buf, source: filename };
  else throw invalidArgument(`'${filename}' is neither an mbox nor an .eml message (no "From " line or header at its start).`);
}

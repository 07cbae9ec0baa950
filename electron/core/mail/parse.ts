import crypto from 'node:crypto';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import sanitizeHtml from 'sanitize-html';

export interface Participant {
  name?: string;
  email: string;
}

export interface AttachmentInfo {
  filename: string;
  content_type: string;
  size: number;
}

/** What the store keeps of one RFC 5322 message; every field is derived from `raw`. */
export interface ParsedMessage {
  raw: Buffer;
  dedupKey: string;
  internetMessageId?: string;
  inReplyTo?: string;
  references: string[];
  from?: Participant;
  to: Participant[];
  cc: Participant[];
  replyTo: Participant[];
  subject: string;
  normSubject: string;
  text: string;
  /** Sanitised HTML (scripts, handlers and remote resources removed), if the message had HTML. */
  html?: string;
  /** True when the original HTML loaded remote resources that sanitising removed. */
  remoteContent: boolean;
  attachments: AttachmentInfo[];
  /** RFC 3339; the Date header, else the time it was parsed. */
  createdAt: string;
  seen: boolean;
}

// The same email pattern ajv-formats uses for `format: email`, so every participant we emit
// validates against the contract; addresses it rejects stay in the raw source only.
const EMAIL_RE =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export const isEmail = (s: string): boolean => EMAIL_RE.test(s);

function participants(obj: AddressObject | AddressObject[] | undefined): Participant[] {
  const out: Participant[] = [];
  const walk = (list: Array<{ address?: string; name: string; group?: Array<{ address?: string; name: string }> }>) => {
    for (const a of list) {
      if (a.group) walk(a.group);
      const email = (a.address ?? '').trim();
      if (!email || !isEmail(email)) continue;
      out.push(a.name?.trim() ? { name: a.name.trim(), email } : { email });
    }
  };
  for (const o of Array.isArray(obj) ? obj : obj ? [obj] : []) walk(o.value);
  return out;
}

const PREFIX_RE = /^\s*((re|fwd?|aw|sv|vs|antw|wg|tr|ref|réf|rif|odp|ynt)(\[\d+\])?\s*:\s*|\[[^\]]{1,40}\]\s*)/i;

/** Subject without reply/forward prefixes and list tags, case- and space-folded (threading key). */
export function normalizeSubject(subject: string): string {
  let s = subject.normalize('NFC');
  for (let i = 0; i < 10; i++) {
    const next = s.replace(PREFIX_RE, '');
    if (next === s) break;
    s = next;
  }
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

export const isReplySubject = (subject: string): boolean => /^\s*((re|aw|sv|vs|antw|odp|ynt)(\[\d+\])?\s*:)/i.test(subject);

function ids(v: string | string[] | undefined): string[] {
  const list = Array.isArray(v) ? v : v ? v.split(/\s+/) : [];
  return list.map((x) => x.trim()).filter((x) => /^<[^<>\s]+>$/.test(x));
}

/** Removes scripts, event handlers, forms and every remote resource; links stay as text targets. */
export function sanitizeMailHtml(html: string): { html: string; remote: boolean } {
  let remote = false;
  const clean = sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(['img', 'center', 'font', 'span', 'del', 'ins', 'sup', 'sub']),
    allowedAttributes: {
      '*': ['style', 'align', 'valign', 'width', 'height', 'colspan', 'rowspan', 'bgcolor', 'color', 'dir', 'lang', 'title'],
      a: ['href', 'name'],
      img: ['src', 'alt', 'width', 'height'],
      font: ['face', 'size', 'color'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['data', 'cid'] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
    },
    exclusiveFilter: (frame) => {
      if (frame.tag === 'img' && !frame.attribs.src) {
        remote = true;
        return true;
      }
      return false;
    },
    onOpenTag: (name, attribs) => {
      if (name === 'img' && /^(https?:)?\/\//i.test(attribs.src ?? '')) remote = true;
    },
  });
  // Remote CSS (url(http…)) inside inline styles would fetch on render; drop those declarations.
  const noRemoteCss = clean.replace(/url\(\s*(['"]?)(https?:)?\/\/[^)]*\)/gi, () => {
    remote = true;
    return 'none';
  });
  return { html: noRemoteCss, remote };
}

export function sha256(data: Buffer | string): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

/** Parses one raw message with mailparser (never by hand) into what the store keeps. */
export async function parseRaw(raw: Buffer, opts: { now: () => number; seen?: boolean }): Promise<ParsedMessage> {
  const p: ParsedMail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, maxHtmlLengthToParse: 5_000_000 });
  const mid = ids(p.messageId)[0];
  const inReplyTo = ids(p.inReplyTo)[0];
  const references = ids(p.references);
  const subject = (p.subject ?? '').trim();
  const htmlSrc = typeof p.html === 'string' ? p.html : undefined;
  const sanitized = htmlSrc ? sanitizeMailHtml(htmlSrc) : undefined;
  const date = p.date && !Number.isNaN(p.date.getTime()) ? p.date : new Date(opts.now());
  const statusHeader = String(p.headers.get('status') ?? '') + String(p.headers.get('x-status') ?? '');
  const from = participants(p.from)[0];
  return {
    raw,
    dedupKey: mid ? `mid:${mid}` : `sha:${sha256(raw)}`,
    internetMessageId: mid,
    inReplyTo,
    references,
    from,
    to: participants(p.to),
    cc: participants(p.cc),
    replyTo: participants(p.replyTo),
    subject,
    normSubject: normalizeSubject(subject),
    text: (p.text ?? '').replace(/\r\n/g, '\n').trim(),
    html: sanitized?.html,
    remoteContent: sanitized?.remote ?? false,
    attachments: p.attachments
      .filter((a) => a.contentDisposition !== 'inline' || !a.contentId)
      .map((a) => ({ filename: a.filename ?? 'attachment', content_type: a.contentType, size: a.size })),
    createdAt: date.toISOString(),
    seen: opts.seen ?? /R/.test(statusHeader),
  };
}

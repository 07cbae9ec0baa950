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

// Inline CSS is kept only as an allow-list of presentational properties whose values are plain
// keywords, lengths and colours: no `(` except rgb()/hsl(), no backslash escapes, no quotes, no
// `//`. So url(), image-set(), expression(), @import and escaped forms of them cannot survive,
// whatever the entity/escape/whitespace trickery (the check runs on the decoded, parsed value).
const CSS_PLAIN = /^(?:[-+#%.,!/\w ]|rgba?\([\d\s.,%/+-]*\)|hsla?\([\d\s.,%/+a-z-]*\))*$/i;
const CSS_FONT_FAMILY = /^[-\w ,'"]*$/;
const SAFE_CSS_PROPS = [
  'color', 'background-color', 'font-size', 'font-weight', 'font-style', 'font-variant', 'line-height', 'letter-spacing', 'word-spacing',
  'text-align', 'text-decoration', 'text-decoration-line', 'text-decoration-color', 'text-decoration-style', 'text-transform', 'text-indent',
  'vertical-align', 'white-space', 'word-break', 'word-wrap', 'overflow-wrap', 'direction', 'unicode-bidi',
  'margin', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left', 'padding', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left',
  'border', 'border-top', 'border-right', 'border-bottom', 'border-left', 'border-color', 'border-style', 'border-width', 'border-radius',
  'border-collapse', 'border-spacing', 'width', 'height', 'max-width', 'min-width', 'max-height', 'min-height',
  'display', 'float', 'clear', 'list-style-type', 'list-style-position', 'table-layout', 'empty-cells', 'caption-side', 'visibility', 'opacity',
];
const ALLOWED_STYLES: Record<string, RegExp[]> = Object.fromEntries([...SAFE_CSS_PROPS.map((p) => [p, [CSS_PLAIN]]), ['font-family', [CSS_FONT_FAMILY]]]);

// Attributes that make a renderer fetch something (on any tag, allowed or not).
const FETCHING_ATTRS = ['src', 'srcset', 'background', 'poster', 'data', 'lowsrc', 'dynsrc', 'xlink:href', 'codebase', 'archive', 'manifest', 'icon'];
// Tags whose href loads (a link's href does not: it is followed only on click).
const HREF_LOADS = new Set(['link', 'image', 'use', 'feimage', 'base', 'script']);

// Whitespace and C0/DEL control characters, which browsers skip inside URLs and CSS tokens.
// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\s\u0000-\u001f\u007f]+/g;

/** CSS text with escapes decoded, comments, whitespace and control characters removed, lower-cased. */
function normalizeCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => {
      const cp = parseInt(hex, 16);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    })
    .replace(/\\(.)/g, '$1')
    .replace(CONTROL_OR_SPACE, '')
    .toLowerCase();
}

/** True when CSS text refers to anything outside the message (url/image-set/@import/protocol-relative). */
export function cssLoadsRemote(css: string): boolean {
  const n = normalizeCss(css);
  if (/@import/.test(n)) return true;
  if (/(^|[^a-z])(https?:|ftp:)?\/\//.test(n)) return true;
  // Any url()/image-set()/image()/src() whose target is not inline data or a cid: part.
  for (const m of n.matchAll(/(?:url|image-set|-webkit-image-set|image|src|cross-fade|element)\(([^)]*)/g)) {
    const arg = (m[1] ?? '').replace(/^['"]/, '');
    if (!/^(data:|cid:)/.test(arg)) return true;
  }
  return false;
}

/** A URL a renderer would fetch: anything but inline data, a cid: part, a fragment or a mailto/tel target. */
const isRemoteUrl = (v: string): boolean => {
  const n = v.replace(CONTROL_OR_SPACE, '').toLowerCase();
  return n.length > 0 && !/^(data:|cid:|#|mailto:|tel:|javascript:)/.test(n);
};

/**
 * Removes scripts, event handlers, forms, `<style>` blocks and every remote resource; links stay as
 * text targets. `remote` is true when the original referred to anything outside the message that
 * a renderer would have loaded (remote images, srcset, background= attributes, url()/image-set()
 * in inline styles or `<style>` blocks, `<link>` stylesheets, iframes, …), all of which are removed.
 */
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
    allowedStyles: { '*': ALLOWED_STYLES },
    parseStyleAttributes: true,
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['data', 'cid'] },
    allowProtocolRelative: false,
    allowVulnerableTags: false,
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
    },
    exclusiveFilter: (frame) => {
      if (frame.tag === 'img' && !frame.attribs.src) return true;
      return false;
    },
    onOpenTag: (name, attribs) => {
      for (const [k, v] of Object.entries(attribs)) {
        const key = k.toLowerCase();
        if (key === 'style' && cssLoadsRemote(v)) remote = true;
        else if (FETCHING_ATTRS.includes(key) && (key === 'srcset' ? v.split(',').some((c) => isRemoteUrl(c.trim().split(/\s+/)[0] ?? '')) : isRemoteUrl(v))) remote = true;
        else if ((key === 'href' || key === 'xlink:href') && HREF_LOADS.has(name) && isRemoteUrl(v)) remote = true;
      }
      if ((name === 'iframe' || name === 'frame' || name === 'object' || name === 'embed') && Object.keys(attribs).length) remote = true;
    },
  });
  // `<style>` is not an allowed tag, so its content is dropped with it; scan it to flag truthfully.
  if (!remote && /<style/i.test(html)) {
    for (const [, css = ''] of html.matchAll(/<style[^>]*>([\s\S]*?)(<\/style\s*>|$)/gi)) if (cssLoadsRemote(css)) remote = true;
  }
  return { html: clean, remote };
}

export function sha256(data: Buffer | string): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
// Headers whose values the fast path needs; any of them appearing twice sends the message to mailparser.
const FAST_HEADERS = new Set(['from', 'to', 'cc', 'reply-to', 'subject', 'date', 'message-id', 'in-reply-to', 'references', 'content-type', 'content-transfer-encoding', 'status', 'x-status', 'content-disposition']);

/** "Name <a@b>, c@d": only the plain forms (no quotes, comments, groups, escapes); else undefined. */
function plainAddresses(v: string | undefined): Participant[] | undefined {
  if (v === undefined) return [];
  if (/["();:\\]|=\?/.test(v)) return undefined;
  const out: Participant[] = [];
  for (const part of v.split(',')) {
    const t = part.trim();
    if (!t) continue;
    const m = /^([^<>]*?)\s*<([^<>\s]+)>$/.exec(t) ?? (/^[^<>\s]+$/.test(t) ? [t, '', t] : null);
    if (!m) return undefined;
    const email = m[2].trim();
    if (!isEmail(email)) return undefined; // mailparser's view of odd addresses is what counts
    const name = m[1].replace(/\s+/g, ' ').trim();
    out.push(name ? { name, email } : { email });
  }
  return out;
}

/**
 * The common case without mailparser: a single-part text/plain (or untyped) message in UTF-8 or
 * ASCII, 7bit/8bit, with no encoded words and plain address headers. Anything else (MIME parts,
 * quoted-printable, base64, other charsets, flowed text, encoded or repeated headers, odd
 * addresses or dates) returns undefined and goes through mailparser. Tests check both paths
 * agree field for field.
 */
export function parseSimple(raw: Buffer, opts: { now: () => number; seen?: boolean }): ParsedMessage | undefined {
  let sep = raw.indexOf('\n\n');
  let crlf = raw.indexOf('\r\n\r\n');
  if (crlf >= 0 && (sep < 0 || crlf < sep)) sep = crlf;
  else crlf = -1;
  if (sep < 0) return undefined;
  let head: string;
  let body: string;
  try {
    head = UTF8.decode(raw.subarray(0, sep));
    body = UTF8.decode(raw.subarray(sep + (crlf >= 0 ? 4 : 2)));
  } catch {
    return undefined;
  }
  if (head.includes('=?') || head.includes('\0') || body.includes('\0')) return undefined;
  const h = new Map<string, string>();
  let name: string | undefined;
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line)) {
      if (!name) return undefined;
      if (FAST_HEADERS.has(name)) return undefined; // folded: leave the unfolding rules to mailparser
      continue;
    }
    const i = line.indexOf(':');
    if (i <= 0) return undefined;
    name = line.slice(0, i).trim().toLowerCase();
    if (!FAST_HEADERS.has(name)) continue;
    if (h.has(name)) return undefined;
    h.set(name, line.slice(i + 1).trim());
  }
  if (h.has('content-disposition')) return undefined;
  const ct = h.get('content-type');
  if (ct !== undefined) {
    const m = /^text\/plain\s*(?:;\s*charset\s*=\s*"?(utf-8|us-ascii)"?\s*)?;?$/i.exec(ct);
    if (!m) return undefined;
  }
  const cte = h.get('content-transfer-encoding');
  if (cte !== undefined && !/^(7bit|8bit)$/i.test(cte)) return undefined;
  const from = plainAddresses(h.get('from'));
  const to = plainAddresses(h.get('to'));
  const cc = plainAddresses(h.get('cc'));
  const replyTo = plainAddresses(h.get('reply-to'));
  if (!from || !to || !cc || !replyTo || from.length > 1) return undefined;
  const midRaw = h.get('message-id');
  const mid = midRaw === undefined ? undefined : ids(midRaw)[0];
  if (midRaw !== undefined && (!mid || midRaw !== mid)) return undefined;
  const irtRaw = h.get('in-reply-to');
  const inReplyTo = irtRaw === undefined ? undefined : ids(irtRaw)[0];
  if (irtRaw !== undefined && (!inReplyTo || irtRaw !== inReplyTo)) return undefined;
  const refRaw = h.get('references');
  const references = ids(refRaw);
  if (refRaw !== undefined && references.length !== refRaw.split(/\s+/).filter(Boolean).length) return undefined;
  const dateRaw = h.get('date');
  let date = new Date(opts.now());
  if (dateRaw !== undefined) {
    // RFC 5322 dates only ("Sun, 01 Jan 2023 00:00:00 +0000"); other forms go to mailparser.
    if (!/^(?:[A-Z][a-z]{2}, )?\d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}(?::\d{2})? [+-]\d{4}$/.test(dateRaw)) return undefined;
    date = new Date(dateRaw);
    if (Number.isNaN(date.getTime())) return undefined;
  }
  const subject = h.get('subject') ?? '';
  const statusHeader = (h.get('status') ?? '') + (h.get('x-status') ?? '');
  return {
    raw,
    dedupKey: mid ? `mid:${mid}` : `sha:${sha256(raw)}`,
    internetMessageId: mid,
    inReplyTo,
    references,
    from: from[0],
    to,
    cc,
    replyTo,
    subject,
    normSubject: normalizeSubject(subject),
    text: body.replace(/\r\n/g, '\n').trim(),
    html: undefined,
    remoteContent: false,
    attachments: [],
    createdAt: date.toISOString(),
    seen: opts.seen ?? /R/.test(statusHeader),
  };
}

/**
 * Parses one raw message into what the store keeps: the plain single-part case directly
 * (parseSimple), everything else with mailparser.
 */
export async function parseRaw(raw: Buffer, opts: { now: () => number; seen?: boolean }): Promise<ParsedMessage> {
  return parseSimple(raw, opts) ?? parseWithMailparser(raw, opts);
}

/** Parses one raw message with mailparser into what the store keeps. */
export async function parseWithMailparser(raw: Buffer, opts: { now: () => number; seen?: boolean }): Promise<ParsedMessage> {
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

/**
 * Seeded generators for the scale bench (and the large-ish vault test): a Zipfian vault of N
 * notes with frontmatter, wikilinks and tags, and an mbox of N messages with realistic headers,
 * ~40% replies in threads of 2–8 (some replies filed before their parents), and some HTML.
 * They write to a directory given at run time (a temp dir), never into the repository.
 */
import fs from 'node:fs';
import path from 'node:path';

export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  // mulberry32: fast, good enough, deterministic.
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REAL = 'the of and to in is for that with on as project meeting notes atlas beacon swim soccer recipe garden boiler invoice receipt kyoto tokyo marathon budget roadmap launch standup design hiring candidate tomato compost ballet piano homework dentist insurance warranty pipeline kafka warehouse migration pricing onboarding metrics flight hotel ramen sushi temple running strength stretching python typescript docker kubernetes postgres index query'.split(' ');

export interface Vocabulary {
  words: string[];
  /** A word drawn with rank-frequency 1/r (Zipf). */
  draw(rnd: () => number): string;
}

/** `size` words, rank-frequency 1/r: a few words are everywhere, most are rare. */
export function vocabulary(size = 20_000): Vocabulary {
  const syl = ['ka', 'lo', 'mi', 'ren', 'tor', 'va', 'shi', 'pel', 'dun', 'ar', 'est', 'qui', 'bo', 'zan', 'fer', 'lin', 'gro', 'nu', 'sta', 'vel', 'chi', 'dra', 'mo', 'pen'];
  const words = [...REAL];
  const seen = new Set(words);
  for (let i = 0; words.length < size; i++) {
    const w = syl[i % 24] + syl[Math.floor(i / 24) % 24] + syl[Math.floor(i / 576) % 24] + (i >= 13_824 ? syl[Math.floor(i / 13_824) % 24] : '');
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return zipf(words);
}

/** Draws from `words` with rank-frequency 1/r: the first word most often, the last most rarely. */
export function zipf(words: string[]): Vocabulary {
  const cum = new Float64Array(words.length);
  let total = 0;
  for (let r = 0; r < words.length; r++) cum[r] = total += 1 / (r + 1);
  return {
    words,
    draw(rnd) {
      const x = rnd() * total;
      let lo = 0;
      let hi = cum.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cum[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return words[lo];
    },
  };
}

const NAMES = ['Priya Nair', 'Tomás Ortega', 'Mei Chen', 'Ada Okafor', 'Lars Berg', 'Sofia Rossi', 'Kenji Sato', 'Noor Haddad', 'Ivan Petrov', 'Grace Kim'];

export interface GeneratedVault {
  dir: string;
  notes: number;
  bytes: number;
  vocab: Vocabulary;
}

/** A vault of `n` notes under `dir` (60 folders, frontmatter, aliases, tags, wikilinks, names). */
export function generateVault(dir: string, n: number, seed = 7): GeneratedVault {
  const rnd = seeded(seed);
  const vocab = vocabulary();
  const w = () => vocab.draw(rnd);
  const folders = Array.from({ length: 60 }, (_, i) => `area-${i % 8}/topic-${i}`);
  for (const f of folders) fs.mkdirSync(path.join(dir, f), { recursive: true });
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const folder = folders[i % folders.length];
    const title = `${w()} ${w()} ${i}`;
    const sentence = () => {
      const len = 6 + Math.floor(rnd() * 14);
      const ws = Array.from({ length: len }, w);
      if (rnd() < 0.15) ws.splice(Math.floor(rnd() * len), 0, NAMES[Math.floor(rnd() * NAMES.length)]);
      return ws.join(' ') + '.';
    };
    const para = () => Array.from({ length: 2 + Math.floor(rnd() * 4) }, sentence).join(' ');
    const paras = Array.from({ length: 1 + Math.floor(rnd() * 4) }, para);
    const link = `[[${'note-' + Math.floor(rnd() * n)}]]`;
    const text =
      `---\ntitle: ${title}\naliases: [${w()}-${i}]\ntags: [${w()}, ${w()}]\ncreated: 2025-01-${String((i % 28) + 1).padStart(2, '0')}\n---\n` +
      `# ${title}\n\n${paras[0]}\n\nSee ${link} and #${w()}.\n\n${paras.slice(1).join('\n\n')}\n` +
      (rnd() < 0.2 ? `\n- [ ] ${sentence()}\n- [x] ${sentence()}\n` : '');
    fs.writeFileSync(path.join(dir, folder, `note-${i}.md`), text);
    bytes += text.length;
  }
  return { dir, notes: n, bytes, vocab };
}

export interface GeneratedMbox {
  file: string;
  messages: number;
  threads: number;
  bytes: number;
  vocab: Vocabulary;
}

/**
 * An mbox of `n` messages written to `file` in chunks: ~60% start a thread, the rest reply in
 * threads of 2–8 (In-Reply-To + References); ~3% of replies are filed before their parent; ~15%
 * are multipart/alternative with HTML; headers as real mail has them (Received, DKIM, List-Id …).
 */
export function generateMbox(file: string, n: number, seed = 42): GeneratedMbox {
  const rnd = seeded(seed);
  const vocab = vocabulary(12_000);
  const w = () => vocab.draw(rnd);
  const fd = fs.openSync(file, 'w');
  let buf: string[] = [];
  let bytes = 0;
  const flush = () => {
    const s = buf.join('');
    bytes += Buffer.byteLength(s);
    fs.writeSync(fd, s);
    buf = [];
  };
  interface Th { subject: string; ids: string[]; from: string; size: number; left: number; pending?: string }
  const open: Th[] = [];
  let threads = 0;
  const t0 = Date.UTC(2023, 0, 1);
  for (let i = 0; i < n; i++) {
    let th: Th;
    const reply = open.length > 0 && rnd() < 0.4;
    if (reply) {
      const k = open.length - 1 - Math.floor(rnd() * Math.min(open.length, 200));
      th = open[k];
    } else {
      const size = rnd() < 0.45 ? 1 : 2 + Math.floor(rnd() * 7);
      th = { subject: `${w()} ${w()} ${w()} ${threads}`, ids: [], from: `person${threads % 900}@example${threads % 53}.org`, size, left: size };
      threads++;
      if (size > 1) open.push(th);
    }
    th.left--;
    if (th.left <= 0 && open.includes(th)) open.splice(open.indexOf(th), 1);
    const id = `<m${i}.${Math.floor(rnd() * 1e9)}@mail.example${i % 17}.net>`;
    const when = new Date(t0 + i * 45_000);
    const from = reply && rnd() < 0.5 ? 'Me <me@acme.example>' : `${NAMES[i % NAMES.length]} <${th.from}>`;
    const lines = Array.from({ length: 6 + Math.floor(rnd() * 18) }, () => Array.from({ length: 8 + Math.floor(rnd() * 6) }, w).join(' '));
    const text = lines.join('\n') + '\n\n-- \nSent from a generator\n';
    const headers = [
      `Return-Path: <${th.from}>`,
      `Received: from mx${i % 9}.example.net (mx${i % 9}.example.net [10.0.${i % 250}.${i % 200}]) by mail.acme.example with ESMTPS id ${i.toString(36)}; ${when.toUTCString()}`,
      `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.net; s=s1; h=from:to:subject:date; bh=${Buffer.from(id).toString('base64')}; b=${Buffer.from(text.slice(0, 90)).toString('base64')}`,
      `From: ${from}`,
      `To: Me <me@acme.example>`,
      ...(rnd() < 0.2 ? [`Cc: ${NAMES[(i + 3) % NAMES.length]} <cc${i % 50}@example.org>`] : []),
      `Subject: ${reply ? 'Re: ' : ''}${th.subject}`,
      `Date: ${when.toUTCString().replace('GMT', '+0000')}`,
      `Message-ID: ${id}`,
      ...(th.ids.length ? [`In-Reply-To: ${th.ids[th.ids.length - 1]}`, `References: ${th.ids.slice(-10).join(' ')}`] : []),
      ...(rnd() < 0.1 ? [`List-Id: <list${i % 7}.example.org>`, 'Precedence: bulk'] : []),
      'MIME-Version: 1.0',
    ];
    let body: string;
    if (rnd() < 0.15) {
      const b = `b${i}x`;
      headers.push(`Content-Type: multipart/alternative; boundary="${b}"`);
      const html = `<html><body><div style="font-family: Arial">${lines.map((l) => `<p>${l}</p>`).join('')}<a href="https://example.org/x">link</a></div></body></html>`;
      body = `--${b}\nContent-Type: text/plain; charset=utf-8\n\n${text}\n--${b}\nContent-Type: text/html; charset=utf-8\n\n${html}\n--${b}--\n`;
    } else {
      headers.push('Content-Type: text/plain; charset=utf-8');
      body = text;
    }
    th.ids.push(id);
    const msg = `From ${th.from.replace(/^.*</, '')} ${when.toUTCString().replace(/,/g, '').replace(/ GMT$/, '')}\n${headers.join('\n')}\n\n${body}\n`;
    // Some replies are filed before their parent: a thread's first message held back until its first reply.
    if (!reply && th.size > 1 && rnd() < 0.08) th.pending = msg;
    else {
      buf.push(msg);
      if (th.pending) {
        buf.push(th.pending);
        th.pending = undefined;
      }
    }
    if (buf.length >= 2000) flush();
  }
  for (const th of open) if (th.pending) buf.push(th.pending);
  flush();
  fs.closeSync(fd);
  return { file, messages: n, threads, bytes, vocab };
}

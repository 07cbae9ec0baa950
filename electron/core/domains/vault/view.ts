/**
 * What the Vault page reads: search pages with highlight ranges, a note with its wikilinks
 * resolved and its backlinks, folder listings with cursors, and "reveal in the file manager".
 * Every path goes through the vault rule (readVaultFile / resolveVaultPath).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MailroomError, notFound } from '../../kernel/errors';
import type { z } from 'zod';
import {
  obsidianUrl,
  type VaultNotesQuery,
  type VaultSearchQuery,
  type MatchRange,
  type NoteRef,
  type RevealReply,
  type Snippet,
  type VaultNotesReply,
  type VaultNoteView,
  type VaultSearchReply,
  type VaultTreeReply,
} from '../../../../shared/contract/vault';
import { parseNote } from './parse';
import { folderOf, normalizeRel, readVaultFile, resolveVaultPath } from './paths';
import type { VaultIndex } from './store';

const OPEN = '\u0002';
const CLOSE = '\u0003';

/** An FTS snippet with \u0002…\u0003 around matches → plain text + ranges (stray markers dropped). */
export function snippetRanges(raw: string): Snippet {
  let text = '';
  const matches: MatchRange[] = [];
  let start = -1;
  for (const ch of raw) {
    if (ch === OPEN) start = text.length;
    else if (ch === CLOSE) {
      if (start >= 0 && text.length > start) matches.push([start, text.length]);
      start = -1;
    } else text += ch;
  }
  return { text, matches };
}

/** Ranges in `text` where a query word (or a word* prefix) starts a word, case-insensitively. */
export function wordRanges(text: string, query: string): MatchRange[] {
  const words = [...new Set((query.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.toLowerCase()))];
  const lower = text.toLowerCase();
  const out: MatchRange[] = [];
  if (lower.length !== text.length) return out;
  for (const w of words) {
    let i = lower.indexOf(w);
    while (i >= 0) {
      const before = i === 0 ? '' : (lower[i - 1] ?? '');
      if (!/[\p{L}\p{N}]/u.test(before)) out.push([i, i + w.length]);
      i = lower.indexOf(w, i + 1);
    }
  }
  out.sort((a, b) => a[0] - b[0]);
  // Merge overlaps so the renderer can walk them in order.
  const merged: MatchRange[] = [];
  for (const r of out) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** One page of search hits (the query parsed by the contract's VaultSearchQuery). */
export function searchPage(index: VaultIndex, q: z.output<typeof VaultSearchQuery>): VaultSearchReply {
  const folder = q.folder ? normalizeRel(q.folder) : undefined;
  const rows = index.searchPage(q.q, { limit: q.limit + 1, offset: q.offset, folder });
  const more = rows.length > q.limit;
  return {
    query: q.q,
    hits: rows.slice(0, q.limit).map((r) => ({
      path: r.path,
      title: r.title,
      folder: r.folder,
      score: r.score,
      snippet: snippetRanges(r.snippet),
      title_matches: wordRanges(r.title, q.q),
    })),
    next_offset: more ? q.offset + q.limit : null,
  };
}

const WIKILINK = /!?\[\[([^\]|\n]+)(?:\|[^\]\n]*)?\]\]/g;

/** The distinct wikilink targets of a markdown body, outside code. */
export function wikilinkTargets(body: string): string[] {
  const plain = body.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
  const out = new Set<string>();
  for (const m of plain.matchAll(WIKILINK)) {
    const t = (m[1] ?? '').trim();
    if (t) out.add(t);
  }
  return [...out];
}

export function noteView(root: string, index: VaultIndex, rel: string): VaultNoteView {
  const clean = normalizeRel(rel);
  let file;
  try {
    file = readVaultFile(root, clean, { maxBytes: 5 * 1024 * 1024 });
  } catch (e) {
    if (e instanceof MailroomError && e.status !== 404) throw e;
    throw notFound(`No note at ${clean} in the vault. Search for it or pick it from a folder.`, { path: clean }, 'note_not_found');
  }
  const text = file.data.toString('utf8');
  const p = parseNote(clean, text);
  const vaultName = path.basename(root);
  const links = wikilinkTargets(p.body).map((target) => {
    const bare = target.replace(/#.*$/, '').trim();
    // A link to a heading in the same note (`[[#Heading]]`) stays on this note.
    return { target, path: bare === '' ? clean : (index.resolveLink(bare, clean) ?? null) };
  });
  return {
    path: clean,
    title: p.title,
    folder: folderOf(clean),
    frontmatter: p.frontmatter,
    content: p.body.replace(/^\s*\n/, '').trimEnd(),
    links,
    backlinks: index.backlinks(clean),
    modified: new Date(file.stat.mtimeMs).toISOString(),
    size: file.stat.size,
    vault_name: vaultName,
    obsidian_url: obsidianUrl(vaultName, clean),
  };
}

const encodeCursor = (after: string) => Buffer.from(JSON.stringify({ a: after }), 'utf8').toString('base64url');
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (!cursor) return undefined;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { a?: unknown };
    if (typeof v.a === 'string') return v.a;
  } catch {
    // fall through
  }
  throw new MailroomError('invalid_argument', 'cursor is not one this server gave out; start again without a cursor.', { cursor });
}

/** One page of notes ordered by path; `next` is the last path of the page, opaque to callers. */
export function notesPage(index: VaultIndex, folder: string, opts: { deep: boolean; limit: number; cursor?: string }): { notes: Array<NoteRef & { modified: string }>; next_cursor: string | null } {
  const rows = index.notesIn(folder, { deep: opts.deep, after: decodeCursor(opts.cursor), limit: opts.limit + 1 });
  const page = rows.slice(0, opts.limit);
  const lastOnPage = page.at(-1);
  return {
    notes: page.map((r) => ({ path: r.path, title: r.title, folder: r.folder, modified: new Date(r.mtime_ms).toISOString() })),
    next_cursor: rows.length > opts.limit && lastOnPage ? encodeCursor(lastOnPage.path) : null,
  };
}

/** One page of a folder's notes (the query parsed by the contract's VaultNotesQuery). */
export function listNotes(index: VaultIndex, q: z.output<typeof VaultNotesQuery>): VaultNotesReply {
  const folder = q.folder.replace(/^\/+|\/+$/g, '') === '' ? '' : normalizeRel(q.folder);
  const deep = q.deep === '1';
  const page = notesPage(index, folder, { deep, limit: q.limit, cursor: q.cursor });
  return { folder, ...page, total: index.countIn(folder, deep) };
}

export function folderTree(index: VaultIndex, folders: string[]): VaultTreeReply {
  const counts = new Map(index.folders().map((f) => [f.folder, f.notes]));
  return {
    folders: folders.map((f) => ({ path: f, notes: counts.get(f) ?? 0 })),
    total_notes: index.count(),
  };
}

/** The argv that shows `abs` in the OS file manager (MAILROOM_REVEAL_COMMAND overrides: `<cmd> <abs>`). */
export function revealCommand(abs: string, isDir: boolean, env: NodeJS.ProcessEnv = process.env, platform = process.platform): [string, ...string[]] {
  if (env.MAILROOM_REVEAL_COMMAND) return [env.MAILROOM_REVEAL_COMMAND, abs];
  if (platform === 'darwin') return isDir ? ['open', abs] : ['open', '-R', abs];
  if (platform === 'win32') return isDir ? ['explorer', abs] : ['explorer', `/select,${abs}`];
  return ['xdg-open', isDir ? abs : path.dirname(abs)];
}

/** Asks the OS to show a vault file (or folder): an argv array, never a shell; resolves once the program started. */
export async function reveal(root: string, rel: string): Promise<RevealReply> {
  const clean = normalizeRel(rel);
  // The vault rule: hidden paths and symlinks that lead outside are refused like everywhere else.
  const abs = resolveVaultPath(root, clean);
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(abs);
  } catch {
    st = undefined;
  }
  if (!st || (!st.isFile() && !st.isDirectory())) throw notFound(`No file or folder at ${clean} in the vault.`, { path: clean });
  const isDir = st.isDirectory();
  const argv = revealCommand(abs, isDir);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'ignore', detached: true, shell: false });
    child.once('error', (e) =>
      reject(new MailroomError('reveal_failed', `Could not start ${argv[0]} to show ${clean}: ${e.message}. Open the vault folder yourself, or set MAILROOM_REVEAL_COMMAND.`, { command: argv[0] }, 500)),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
  return { ok: true, path: clean, command: argv };
}

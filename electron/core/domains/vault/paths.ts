import fs from 'node:fs';
import path from 'node:path';
import { MailroomError, notFound } from '../../kernel/errors';
import { ErrorCode } from '../../../../shared/errors';
import { walkTree } from '../../kernel/fs';

const outside = (rel: string, why: string) =>
  new MailroomError(
    ErrorCode.pathOutsideVault,
    `"${rel}" is not a path inside the vault (${why}). Give a path relative to the vault root, e.g. inbox/note.md.`,
    { path: rel, reason: why },
  );

/** Vault-relative paths always use forward slashes, whatever the OS. */
export const toPosix = (p: string) => p.split(path.sep).join('/');

/**
 * Checks a vault-relative path lexically: no NUL, not absolute, no `..` segment, not empty.
 * Returns it normalised (forward slashes, no `./`, no trailing slash).
 */
export function normalizeRel(rel: string): string {
  if (typeof rel !== 'string' || rel.trim() === '') throw outside(String(rel), 'empty path');
  if (rel.includes('\0')) throw outside(rel.replace(/\0/g, '\\0'), 'contains a NUL byte');
  if (path.isAbsolute(rel) || path.win32.isAbsolute(rel) || rel.startsWith('/') || rel.startsWith('\\')) throw outside(rel, 'absolute path');
  const parts = rel.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (parts.includes('..')) throw outside(rel, 'contains ..');
  if (parts.length === 0) throw outside(rel, 'empty path');
  return parts.join('/');
}

export const PATH_HIDDEN = 'path_hidden';

const hiddenPath = (rel: string) =>
  new MailroomError(
    PATH_HIDDEN,
    `"${rel}" is a hidden path (a part starts with "."). Mailroom never reads or writes hidden files or folders such as .env, .git or .obsidian; give a visible vault path, e.g. notes/idea.md.`,
    { path: rel },
  );

const hasHiddenSegment = (rel: string) => rel.split(/[\\/]+/).some((s) => s.startsWith('.') && s !== '.' && s !== '..');

function realRootOf(root: string): string {
  try {
    return fs.realpathSync.native(root);
  } catch {
    throw notFound(`The vault folder ${root} does not exist; create it or point "vault" in config.json at your notes.`, { vault: root }, 'vault_not_found');
  }
}

const inside = (realRoot: string, real: string) => real === realRoot || real.startsWith(realRoot + path.sep);

/**
 * THE rule for every vault path, read or write: lexically clean (see normalizeRel), no hidden
 * segment, and — following symlinks on the deepest part that exists — the real path is inside
 * the real vault root and not hidden either. A symlink that points outside the vault (or at
 * `.env`, `.git/…`) is refused, whatever the caller. Returns the absolute (unresolved) path.
 */
export function resolveVaultPath(root: string, rel: string): string {
  const clean = normalizeRel(rel);
  if (hasHiddenSegment(clean)) throw hiddenPath(clean);
  const realRoot = realRootOf(root);
  const abs = path.join(realRoot, clean);
  // Walk up to the deepest existing ancestor and check where it really points: a symlinked
  // folder (or file) inside the vault must not lead outside it, nor to a hidden file inside it.
  let probe = abs;
  for (;;) {
    let real: string | undefined;
    try {
      real = fs.realpathSync.native(probe);
    } catch {
      real = undefined;
    }
    if (real !== undefined) {
      if (!inside(realRoot, real)) throw outside(clean, 'a symlink leads outside the vault');
      if (hasHiddenSegment(path.relative(realRoot, real))) throw hiddenPath(clean);
      break;
    }
    const up = path.dirname(probe);
    if (up === probe) break;
    probe = up;
  }
  return abs;
}

/** @deprecated name kept for callers; same rule as resolveVaultPath. */
export const resolveInVault = resolveVaultPath;

export interface VaultFile {
  /** Normalised vault-relative path. */
  rel: string;
  /** The real path that was read. */
  real: string;
  data: Buffer;
  stat: fs.Stats;
}

const notAFile = (rel: string) => notFound(`No file at ${rel} in the vault.`, { path: rel });

/**
 * Reads one file of the vault under the vault rule (resolveVaultPath). Opens the real path with
 * O_NOFOLLOW (a symlink swapped in after the check is not followed) and O_NONBLOCK (a FIFO never
 * blocks), and reads only regular files. Throws path_outside_vault, path_hidden or not_found;
 * error messages never carry file contents.
 */
export function readVaultFile(root: string, rel: string, opts: { maxBytes?: number } = {}): VaultFile {
  const abs = resolveVaultPath(root, rel);
  const clean = normalizeRel(rel);
  let real: string;
  try {
    real = fs.realpathSync.native(abs);
  } catch {
    throw notAFile(clean);
  }
  const realRoot = realRootOf(root);
  if (!inside(realRoot, real)) throw outside(clean, 'a symlink leads outside the vault');
  if (hasHiddenSegment(path.relative(realRoot, real))) throw hiddenPath(clean);
  let fd: number;
  try {
    fd = fs.openSync(real, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    throw notAFile(clean);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw notAFile(clean);
    if (opts.maxBytes !== undefined && stat.size > opts.maxBytes) {
      throw new MailroomError(ErrorCode.tooLarge, `${clean} is ${stat.size} bytes; the limit is ${opts.maxBytes}.`, { path: clean, size: stat.size, limit: opts.maxBytes });
    }
    return { rel: clean, real, data: fs.readFileSync(fd), stat };
  } finally {
    fs.closeSync(fd);
  }
}

/** readVaultFile, or undefined when the path is refused or absent (for indexers and listings). */
export function tryReadVaultFile(root: string, rel: string, opts: { maxBytes?: number } = {}): VaultFile | undefined {
  try {
    return readVaultFile(root, rel, opts);
  } catch {
    return undefined;
  }
}

/**
 * tryReadVaultFile for many files at once (catch-up, folder profiles, a page of snippets): the
 * same rule, with each folder's real path resolved and checked once per reader instead of once per
 * file. A file is opened in its folder's real path with O_NOFOLLOW, so a symlinked file fails to
 * open and goes through the full per-file check (tryReadVaultFile). Keep a reader for one batch
 * of work: a folder swapped for a symlink afterwards is only seen by a new reader.
 */
export interface VaultReader {
  /** tryReadVaultFile. */
  read(rel: string, opts?: { maxBytes?: number }): VaultFile | undefined;
  /** vaultFileStat. */
  stat(rel: string): fs.Stats | undefined;
}

export function vaultReader(root: string): VaultReader {
  const noFollow = fs.constants.O_NOFOLLOW;
  // Without O_NOFOLLOW (Windows) a symlinked file cannot be told apart at open: every file gets the full check.
  if (!noFollow) return { read: (rel, opts) => tryReadVaultFile(root, rel, opts), stat: (rel) => vaultFileStat(root, rel) };
  let realRoot: string | undefined;
  const dirs = new Map<string, string | null>();
  const realDir = (dir: string): string | null => {
    let d = dirs.get(dir);
    if (d !== undefined) return d;
    d = null;
    try {
      realRoot ??= realRootOf(root);
      const real = fs.realpathSync.native(path.join(realRoot, dir));
      if (inside(realRoot, real) && !hasHiddenSegment(path.relative(realRoot, real))) d = real;
    } catch {
      d = null;
    }
    dirs.set(dir, d);
    return d;
  };
  /** The file's path under its folder's checked real path, or null when the folder does not pass. */
  const place = (rel: string): { clean: string; real: string | null } | undefined => {
    let clean: string;
    try {
      clean = normalizeRel(rel);
    } catch {
      return undefined;
    }
    if (hasHiddenSegment(clean)) return undefined;
    const slash = clean.lastIndexOf('/');
    const dir = realDir(slash < 0 ? '' : clean.slice(0, slash));
    return { clean, real: dir === null ? null : path.join(dir, clean.slice(slash + 1)) };
  };
  const stat = (rel: string): fs.Stats | undefined => {
    const at = place(rel);
    if (!at) return undefined;
    if (at.real === null) return vaultFileStat(root, rel);
    try {
      const st = fs.lstatSync(at.real);
      if (st.isSymbolicLink()) return vaultFileStat(root, rel);
      return st.isFile() ? st : undefined;
    } catch {
      return undefined;
    }
  };
  const read = (rel: string, opts: { maxBytes?: number } = {}): VaultFile | undefined => {
    const at = place(rel);
    if (!at) return undefined;
    if (at.real === null) return tryReadVaultFile(root, rel, opts);
    const { clean, real } = at;
    let fd: number;
    try {
      fd = fs.openSync(real, fs.constants.O_RDONLY | noFollow | (fs.constants.O_NONBLOCK ?? 0));
    } catch (e) {
      // A symlinked file (ELOOP) is allowed when it leads to a visible file inside the vault: the full check decides.
      return (e as NodeJS.ErrnoException).code === 'ELOOP' ? tryReadVaultFile(root, rel, opts) : undefined;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile() || (opts.maxBytes !== undefined && stat.size > opts.maxBytes)) return undefined;
      return { rel: clean, real, data: fs.readFileSync(fd), stat };
    } catch {
      return undefined;
    } finally {
      fs.closeSync(fd);
    }
  };
  return { read, stat };
}

/** True when `rel` exists as a regular file the vault rule allows reading (symlinks resolved). */
export function vaultFileStat(root: string, rel: string): fs.Stats | undefined {
  try {
    const abs = resolveVaultPath(root, rel);
    const st = fs.statSync(abs);
    return st.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every file under `folder` ('' for the whole vault) that the vault rule allows, as vault-relative
 * posix paths: hidden names are skipped, symlinked files are kept only when they resolve to a
 * visible file inside the vault, symlinked folders are never descended (no loops, no escapes).
 */
export function listVaultFiles(root: string, folder = '', accept: (rel: string) => boolean = () => true, maxDepth = 64): string[] {
  const out: string[] = [];
  let start: string;
  try {
    start = folder ? fs.realpathSync.native(resolveVaultPath(root, folder)) : fs.realpathSync.native(root);
  } catch {
    return out;
  }
  const base = folder ? normalizeRel(folder) : '';
  walkTree(
    start,
    (e, _abs, rel) => {
      if (e.name.startsWith('.')) return false;
      const r = base ? `${base}/${rel}` : rel;
      if (e.isDirectory()) return true;
      if (e.isFile() ? accept(r) : e.isSymbolicLink() && accept(r) && vaultFileStat(root, r)) out.push(r);
      return false;
    },
    maxDepth,
  );
  return out.sort();
}

/** Markdown notes under a folder that may not be the vault yet (hidden folders skipped), counted up to `limit`. */
export function countNotes(dir: string, limit = 200_000): number {
  let n = 0;
  walkTree(dir, (e) => {
    if (n >= limit || e.name.startsWith('.')) return false;
    if (e.isFile() && /\.md$/i.test(e.name)) n++;
    return e.isDirectory();
  });
  return n;
}

/** Folder part of a vault-relative path ('' for the root). */
export function folderOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

/** Hidden segments (.git, .obsidian, .trash, dotfiles, our `.mailroom-*` temp files) are never notes. */
export function isIgnoredRel(rel: string): boolean {
  return rel.split('/').some((s) => s.startsWith('.'));
}

export const isNotePath = (rel: string) => /\.md$/i.test(rel) && !isIgnoredRel(rel);

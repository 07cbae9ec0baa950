import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Prefix of Mailroom's temp files, so watchers can ignore them. */
export const TEMP_PREFIX = '.mailroom-tmp-';

export interface AtomicWriteOptions {
  /** File mode for a new file (default 0644). */
  mode?: number;
  /** Fail with EEXIST instead of replacing an existing file (never overwrite a note). */
  noReplace?: boolean;
}

/** Makes a rename in `dir` durable; a no-op where the platform cannot fsync a directory. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    /* some platforms cannot fsync a directory; the rename is still atomic */
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Writes a file so that a crash leaves either the old or the new content, never a mix: a temp
 * file beside the target, fsync, rename (or link, with noReplace), fsync of the folder.
 */
export function writeFileAtomic(file: string, data: string | Buffer, opts: AtomicWriteOptions = {}): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${crypto.randomBytes(6).toString('hex')}`);
  const fd = fs.openSync(tmp, 'wx', opts.mode ?? 0o644);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    if (opts.noReplace) fs.linkSync(tmp, file);
    else fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  fsyncDir(dir);
}

/** The data dir holds mail, memories and session messages: only its owner may read it. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

function chmodQuiet(p: string, mode: number): void {
  try {
    fs.chmodSync(p, mode);
  } catch {
    /* absent, or a platform without POSIX modes */
  }
}

/** Creates `dir` (and parents) and makes it 0700 whatever the umask; tightens an existing one. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodQuiet(dir, PRIVATE_DIR_MODE);
}

/** Creates `file` empty if absent, and makes it (and any of `siblings` suffixes that exist) 0600. */
export function ensurePrivateFile(file: string, siblings: string[] = []): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodQuiet(file, PRIVATE_FILE_MODE);
  for (const s of siblings) if (fs.existsSync(file + s)) chmodQuiet(file + s, PRIVATE_FILE_MODE);
}

/**
 * Walks a folder tree depth first: `visit` is called for every entry (never for the root) with
 * its absolute path, its path relative to the root (posix) and its depth (0 for the root's own
 * entries). A directory is entered when `visit` returns true and the depth allows; symlinked
 * folders are never entered (`Dirent.isDirectory()` is false for them) and unreadable folders are
 * skipped. The one walker every tree scan in Mailroom uses.
 */
export function walkTree(root: string, visit: (e: fs.Dirent, abs: string, rel: string, depth: number) => boolean | void, maxDepth = 32): void {
  const walk = (dir: string, rel: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (visit(e, abs, r, depth) === true && e.isDirectory() && depth < maxDepth) walk(abs, r, depth + 1);
    }
  };
  walk(root, '', 0);
}

/**
 * Drops group/other permission bits from everything under `dir` (data dirs made by older
 * versions under a 022 umask). Symlinks are neither followed nor changed.
 */
export function tightenTree(dir: string, maxDepth = 8): void {
  const visit = (e: fs.Dirent, p: string): boolean => {
    if (e.isSymbolicLink()) return false;
    if (e.isDirectory()) {
      chmodQuiet(p, PRIVATE_DIR_MODE);
      return true;
    }
    if (e.isFile()) {
      try {
        const m = fs.lstatSync(p).mode & 0o777;
        if (m & 0o077) chmodQuiet(p, m & 0o700);
      } catch {
        /* gone meanwhile */
      }
    }
    return false;
  };
  chmodQuiet(dir, PRIVATE_DIR_MODE);
  walkTree(dir, visit, maxDepth);
}

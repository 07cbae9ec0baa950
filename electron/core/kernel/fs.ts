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
 * Drops group/other permission bits from everything under `dir` (data dirs made by older
 * versions under a 022 umask). Symlinks are neither followed nor changed.
 */
export function tightenTree(dir: string, maxDepth = 8): void {
  const walk = (d: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isSymbolicLink()) continue;
      if (e.isDirectory()) {
        chmodQuiet(p, PRIVATE_DIR_MODE);
        if (depth < maxDepth) walk(p, depth + 1);
      } else if (e.isFile()) {
        try {
          const m = fs.lstatSync(p).mode & 0o777;
          if (m & 0o077) chmodQuiet(p, m & 0o700);
        } catch {
          /* gone meanwhile */
        }
      }
    }
  };
  chmodQuiet(dir, PRIVATE_DIR_MODE);
  walk(dir, 0);
}

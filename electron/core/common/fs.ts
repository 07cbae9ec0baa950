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

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir, TEMP_PREFIX, walkTree, writeFileAtomic } from '../../kernel/fs';

export { TEMP_PREFIX } from '../../kernel/fs';

/** Write to a temp file beside the target, fsync, rename over it, fsync the folder. */
export function atomicWrite(abs: string, data: string | Buffer): void {
  writeFileAtomic(abs, data);
}

/**
 * Moves a file atomically: a rename on the same device; across devices a copy to a temp file
 * beside the target + fsync + rename, then the source is removed. A crash in between leaves the
 * source in place and at most an identical copy at the target (recovery sees equal hashes).
 */
export function moveFile(src: string, dst: string): void {
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  try {
    fs.renameSync(src, dst);
    fsyncDir(path.dirname(dst));
    if (path.dirname(src) !== path.dirname(dst)) fsyncDir(path.dirname(src));
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
  }
  atomicWrite(dst, fs.readFileSync(src));
  fs.rmSync(src);
  fsyncDir(path.dirname(src));
}

export const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');

export function hashFile(abs: string): string | undefined {
  try {
    return sha256(fs.readFileSync(abs));
  } catch {
    return undefined;
  }
}

/** `a/b.md` → `a/b.md`, or `a/b-2.md`, `a/b-3.md` … whichever is free (never overwrite). */
export function freePath(abs: string, taken: (p: string) => boolean = (p) => fs.existsSync(p)): string {
  if (!taken(abs)) return abs;
  const ext = path.extname(abs);
  const base = abs.slice(0, abs.length - ext.length);
  for (let i = 2; ; i++) {
    const c = `${base}-${i}${ext}`;
    if (!taken(c)) return c;
  }
}

/** Removes temp files a crash left behind (only ours, by prefix). */
export function sweepTempFiles(dir: string, maxDepth = 6): number {
  let n = 0;
  walkTree(
    dir,
    (e, abs) => {
      if (e.name.startsWith(TEMP_PREFIX)) {
        fs.rmSync(abs, { force: true });
        n++;
        return false;
      }
      return !e.name.startsWith('.');
    },
    maxDepth,
  );
  return n;
}

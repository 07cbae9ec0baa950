import fs from 'node:fs';
import path from 'node:path';
import { MailroomError } from '../common/errors';
import { ErrorCode } from '../../../shared/errors';
import { writeFileAtomic } from '../common/fs';

/**
 * Resolves a vault-relative path and proves it stays inside the vault: no NUL, no absolute
 * path, no `..` segment, and no symlink on the way that points outside.
 */
export function containedPath(root: string, rel: string): string {
  const reject = (why: string) =>
    new MailroomError(ErrorCode.pathOutsideVault, `Path '${rel.replace(/\0/g, '\\0')}' is not inside the vault: ${why}. Use a path relative to the vault root, like 'projects/note.md'.`, { path: rel });
  if (rel.includes('\0')) throw reject('it contains a NUL byte');
  if (path.isAbsolute(rel) || /^[a-zA-Z]:[\\/]/.test(rel)) throw reject('it is absolute');
  if (rel.split(/[\\/]+/).includes('..')) throw reject("it contains '..'");
  const realRoot = fs.realpathSync(root);
  const target = path.resolve(realRoot, rel);
  // The deepest existing ancestor must resolve (through any symlinks) inside the vault.
  let probe = target;
  while (!fs.existsSync(probe)) probe = path.dirname(probe);
  const real = fs.realpathSync(probe);
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) throw reject('a symlink on the way points outside the vault');
  return target;
}

/** Writes a new note atomically without ever replacing an existing one. */
export function writeNewFileAtomic(file: string, text: string): void {
  writeFileAtomic(file, text, { noReplace: true });
}

export function slugify(text: string, max = 60): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
  return slug || 'note';
}

/** `dir/base.md`, or `dir/base-2.md`, `-3`… — names never collide. */
export function freeName(dir: string, base: string): string {
  for (let i = 1; ; i++) {
    const name = i === 1 ? `${base}.md` : `${base}-${i}.md`;
    if (!fs.existsSync(path.join(dir, name))) return name;
  }
}

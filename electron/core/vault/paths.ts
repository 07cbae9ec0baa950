import fs from 'node:fs';
import path from 'node:path';
import { MailroomError } from '../common/errors';
import { ErrorCode } from '../../../shared/errors';

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

/** Resolves `rel` inside `root` and rejects anything that leaves it, including through symlinks. */
export function resolveInVault(root: string, rel: string): string {
  const clean = normalizeRel(rel);
  const realRoot = fs.realpathSync(root);
  const abs = path.join(realRoot, clean);
  // Walk up to the deepest existing ancestor and check where it really points: a symlinked
  // folder (or file) inside the vault must not lead outside it.
  let probe = abs;
  for (;;) {
    let real: string | undefined;
    try {
      real = fs.realpathSync(probe);
    } catch {
      real = undefined;
    }
    if (real !== undefined) {
      if (real !== realRoot && !real.startsWith(realRoot + path.sep)) throw outside(rel, 'a symlink leads outside the vault');
      break;
    }
    const up = path.dirname(probe);
    if (up === probe) break;
    probe = up;
  }
  return abs;
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

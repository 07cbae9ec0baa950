/**
 * brain_inbox_save and drag-and-drop capture: write the item to `inbox/<date>-<slug>.md` with the
 * hints kept in frontmatter for analysis, or — with skip_inbox and a category — file it directly.
 */
import path from 'node:path';
import { MailroomError } from '../../kernel/errors';
import { freePath, isIgnoredRel, normalizeRel, splitFrontmatter, stringifyYaml, type VaultApi } from '../vault';
import type { ProcessingHints } from './contract';
import { INBOX_FOLDER } from './analyze';
import { clip, plain, slugify } from './text';

export interface SaveInput {
  content: string;
  title?: string;
  processing_hints?: ProcessingHints;
}

export interface SaveResult {
  path: string;
  filed: boolean;
  commit?: string;
}

export const MAX_SAVE_BYTES = 1024 * 1024;

function titleOf(input: SaveInput, body: string): string {
  if (input.title?.trim()) return input.title.trim().replace(/\s+/g, ' ');
  const h = /^#\s+(.+)$/m.exec(body)?.[1];
  if (h) return h.trim();
  const first = plain(body).split(/(?<=[.!?])\s/)[0] ?? '';
  return clip(first, 60) || 'Untitled';
}

export async function saveItem(vault: Pick<VaultApi, 'root' | 'resolve' | 'writeNote'>, input: SaveInput, now: number): Promise<SaveResult> {
  if (typeof input.content !== 'string' || !input.content.trim()) {
    throw new MailroomError('invalid_argument', 'content is empty; give the text to save.');
  }
  if (Buffer.byteLength(input.content) > MAX_SAVE_BYTES) {
    throw new MailroomError('too_large', `content is over ${MAX_SAVE_BYTES / 1024} KiB; save large files into the vault directly.`);
  }
  const hints = input.processing_hints ?? {};
  if (hints.skip_inbox && !hints.category?.trim()) {
    throw new MailroomError('invalid_argument', 'skip_inbox needs a category (the folder to file into), e.g. work/meetings.');
  }
  const { frontmatter, body } = splitFrontmatter(input.content);
  const title = titleOf(input, body);
  const date = new Date(now).toISOString();
  let folder = INBOX_FOLDER;
  let filed = false;
  if (hints.category !== undefined) {
    const cat = normalizeRel(hints.category.replace(/\/+$/, '') || '.');
    vault.resolve(cat);
    if (isIgnoredRel(cat)) throw new MailroomError('invalid_argument', `category "${hints.category}" is a hidden folder; choose a visible folder.`);
    if (hints.skip_inbox && cat !== INBOX_FOLDER) {
      folder = cat;
      filed = true;
    }
  }
  const fm: Record<string, unknown> = { ...frontmatter };
  fm.title ??= title;
  fm.created ??= date;
  const tags = [...new Set([...(Array.isArray(fm.tags) ? (fm.tags as unknown[]).map(String) : []), ...(hints.tags ?? [])])];
  if (tags.length) fm.tags = tags;
  if (hints.source) fm.source ??= hints.source;
  if (!filed) {
    const kept: Record<string, unknown> = {};
    for (const k of ['category', 'entities', 'related_notes', 'source'] as const) if (hints[k] !== undefined) kept[k] = hints[k];
    if (Object.keys(kept).length) fm.processing_hints = kept;
  }
  const name = filed ? `${slugify(title)}.md` : `${date.slice(0, 10)}-${slugify(title)}.md`;
  const abs = freePath(vault.resolve(`${folder}/${name}`));
  const rel = path.relative(vault.root, abs).split(path.sep).join('/');
  const hasHeading = /^#\s+/m.test(body);
  const text = `---\n${stringifyYaml(fm).trimEnd()}\n---\n\n${hasHeading || input.title === undefined ? '' : `# ${title}\n\n`}${body.trim()}\n`;
  const r = await vault.writeNote(rel, text, { message: filed ? `Mailroom: file "${clip(title, 50)}" into ${folder}` : `Mailroom: save "${clip(title, 50)}" to the inbox` });
  return { path: r.path, filed, ...(r.commit ? { commit: r.commit } : {}) };
}

import path from 'node:path';
import { z } from 'zod';
import { MailroomError, invalidArgument, notFound } from '../../kernel/errors';
import { parseWith } from '../../kernel/tool';
import type { JsonObject } from '../../kernel/types';
import { readVaultFile, splitFrontmatter } from '../vault';
import type { InboxLike, RoutableItem, VaultLike } from './types';

/** The item as a client may pass it (route_item { item }, the Preview's sample). */
export const ItemInput = z.object({
  path: z.string().optional(),
  title: z.string().optional(),
  content: z.string().default(''),
  folder: z.string().optional(),
  intent: z.string().optional(),
  entities: z.array(z.string()).default([]),
  tags: z.array(z.string()).default([]),
  source: z.string().optional(),
  date: z.string().optional(),
  frontmatter: z.record(z.string(), z.unknown()).optional(),
});
export type ItemInputT = z.input<typeof ItemInput>;

const firstLine = (s: string) => s.split(/\r?\n/).map((l) => l.replace(/^#+\s*/, '').trim()).find(Boolean) ?? '';

export function normalizeItem(raw: unknown): RoutableItem {
  const i = parseWith(ItemInput, raw, 'item');
  const title = i.title?.trim() || firstLine(i.content) || (i.path ? path.basename(i.path, path.extname(i.path)) : '');
  if (!title && !i.content) throw invalidArgument('The item is empty: give it at least a title or some content.');
  return {
    path: i.path,
    title: title || 'Untitled',
    content: i.content,
    folder: i.folder,
    intent: i.intent,
    entities: i.entities,
    tags: i.tags.map((t) => t.replace(/^#/, '')),
    source: i.source,
    date: i.date,
    frontmatter: i.frontmatter as JsonObject | undefined,
  };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : typeof v === 'number' ? String(v) : undefined);
const strList = (v: unknown): string[] => {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (!Array.isArray(v)) return [];
  return v
    .map((e) => (typeof e === 'string' ? e : e && typeof e === 'object' ? (str((e as JsonObject).text) ?? str((e as JsonObject).name) ?? str((e as JsonObject).value) ?? str((e as JsonObject).canonical)) : undefined))
    .filter((e): e is string => !!e);
};
const dateOf = (v: unknown): string | undefined => (v instanceof Date ? v.toISOString().slice(0, 10) : str(v));

/** An item from a note's frontmatter and body (no inbox analysis available). */
export function itemFromNote(note: { path: string; title: string; frontmatter: JsonObject; content: string }): RoutableItem {
  const fm = note.frontmatter ?? {};
  return normalizeItem({
    path: note.path,
    title: note.title,
    content: note.content,
    folder: str(fm.folder) ?? str(fm.destination),
    intent: str(fm.intent) ?? str(fm.type) ?? str(fm.category),
    entities: strList(fm.entities ?? fm.people),
    tags: strList(fm.tags),
    source: str(fm.source) ?? 'note',
    date: dateOf(fm.due ?? fm.date),
    frontmatter: JSON.parse(JSON.stringify(fm)) as JsonObject,
  });
}

/**
 * Folds an inbox analysis (whatever its exact shape: `{ items: [...] }` or a list; destination as
 * a file path, folder or object; entities as strings or `{ text | name }`) onto the note's item.
 */
export function mergeAnalysis(base: RoutableItem, analysis: unknown, p: string): RoutableItem {
  const list = Array.isArray(analysis) ? analysis : analysis && typeof analysis === 'object' ? ((analysis as JsonObject).items ?? (analysis as JsonObject).analyses) : undefined;
  const a = (Array.isArray(list) ? list : []).find((x) => x && typeof x === 'object' && (x as JsonObject).path === p) as JsonObject | undefined;
  if (!a) return base;
  const dest = a.destination;
  const destPath = str(dest) ?? (dest && typeof dest === 'object' ? (str((dest as JsonObject).folder) ?? str((dest as JsonObject).path)) : undefined);
  const folder = str(a.folder) ?? str(a.suggested_folder) ?? (destPath ? (/\.md$/i.test(destPath) ? path.posix.dirname(destPath) : destPath.replace(/\/+$/, '')) : undefined);
  const intent = str(a.intent) ?? (a.intent && typeof a.intent === 'object' ? str((a.intent as JsonObject).label) : undefined);
  const entities = strList(a.entities);
  const tags = strList(a.tags);
  return {
    ...base,
    // The note's own title wins: analyses clip theirs for display.
    title: base.title || (str(a.suggested_title) ?? str(a.title) ?? ''),
    folder: folder && folder !== '.' ? folder : base.folder,
    intent: intent ?? base.intent,
    entities: entities.length ? [...new Set([...base.entities, ...entities])] : base.entities,
    tags: tags.length ? [...new Set([...base.tags, ...tags])] : base.tags,
    source: str(a.source) ?? base.source,
    date: dateOf(a.date ?? a.due) ?? base.date,
  };
}

/**
 * Reads a note straight from the vault folder when the vault domain is not wired in: the path
 * must stay inside the vault (no `..`, no absolute path, no NUL, no symlink escape).
 */
export function readNoteFromDisk(vaultDir: string, rel: string): { path: string; title: string; frontmatter: JsonObject; content: string } {
  // The vault rule (hidden paths, symlinks leading outside) lives in the vault domain.
  let text: string;
  try {
    text = readVaultFile(vaultDir, rel).data.toString('utf8');
  } catch (e) {
    if (e instanceof MailroomError && e.status !== 404) throw e;
    throw notFound(`No note at ${rel} in the vault.`, { path: rel });
  }
  const parsed = splitFrontmatter(text);
  const fm: JsonObject = parsed.frontmatter;
  const title = str(fm.title) ?? (firstLine(parsed.body) || path.basename(rel, path.extname(rel)));
  return { path: rel.split(path.sep).join('/'), title, frontmatter: fm, content: parsed.body.trim() };
}

export interface ItemSources {
  vault?: VaultLike;
  inbox?: InboxLike;
  vaultDir: string;
}

/** `{ path }` → the vault note, enriched by the inbox's analysis when there is one; `{ item }` as is. */
export async function resolveItem(input: { path?: string; item?: unknown }, src: ItemSources): Promise<RoutableItem> {
  if (input.item !== undefined) return normalizeItem(input.item);
  if (!input.path) throw invalidArgument('Give either path (a note in the vault) or item ({ title, content, … }).');
  const note = src.vault ? await src.vault.readNote(input.path) : readNoteFromDisk(src.vaultDir, input.path);
  let item = itemFromNote(note);
  if (src.inbox) {
    try {
      item = mergeAnalysis(item, await src.inbox.analyze({ paths: [input.path] }), note.path);
    } catch (e) {
      // Routing works from the note alone; the analysis only adds folder/intent/entities.
      if (e instanceof MailroomError && e.status === 404) throw e;
    }
  }
  return item;
}

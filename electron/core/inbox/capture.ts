import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { invalidArgument, MailroomError } from '../common/errors';
import { containedPath, freeName, slugify, writeNewFileAtomic } from './files';

export const ProcessingHints = z
  .object({
    category: z.string().min(1).optional().describe('a vault folder to file into, e.g. "family/activities/swim"'),
    tags: z.array(z.string().min(1)).optional(),
    skip_inbox: z.boolean().optional().describe('file directly into category instead of the inbox'),
    entities: z.array(z.string().min(1)).optional(),
    related_notes: z.array(z.string().min(1)).optional(),
    source: z.string().optional(),
  })
  .strict();

export const SaveInput = z
  .object({
    content: z.string().min(1, 'content is empty'),
    title: z.string().min(1).max(200).optional(),
    processing_hints: ProcessingHints.optional(),
    source: z.string().optional(),
  })
  .strict();
export type SaveInput = z.infer<typeof SaveInput>;

export interface SaveResult {
  path: string;
  filed: boolean;
  title: string;
}

export const MAX_CAPTURE_BYTES = 1024 * 1024;

function titleOf(input: SaveInput): string {
  if (input.title) return input.title.trim();
  const heading = /^#\s+(.+)$/m.exec(input.content);
  if (heading) return heading[1].trim();
  const firstLine = input.content.trim().split('\n')[0] ?? '';
  return firstLine.length > 80 ? firstLine.slice(0, 77).trimEnd() + '…' : firstLine || 'Untitled';
}

/**
 * Saves content to the vault's inbox as `inbox/<date>-<slug>.md`, keeping the hints in
 * frontmatter for analysis; with `skip_inbox` and a category it files straight there.
 */
export function saveToInbox(vaultDir: string, input: SaveInput, now = new Date()): SaveResult {
  if (Buffer.byteLength(input.content) > MAX_CAPTURE_BYTES) {
    throw new MailroomError('too_large', `Content is larger than ${MAX_CAPTURE_BYTES} bytes; split it or save it as a file in the vault.`);
  }
  const hints = input.processing_hints ?? {};
  const title = titleOf(input);
  const date = now.toISOString().slice(0, 10);
  const direct = hints.skip_inbox === true;
  if (direct && !hints.category) throw invalidArgument('skip_inbox needs processing_hints.category (the folder to file into).');
  const folderRel = direct ? hints.category!.replace(/\/+$/g, '') : 'inbox';
  const folder = containedPath(vaultDir, folderRel);
  const name = freeName(folder, direct ? slugify(title) : `${date}-${slugify(title)}`);
  const file = containedPath(vaultDir, path.join(folderRel, name));

  const front: Record<string, unknown> = { title, created: now.toISOString() };
  const source = hints.source ?? input.source;
  if (source) front.source = source;
  if (hints.tags?.length) front.tags = hints.tags;
  if (!direct && Object.keys(hints).length) front.processing_hints = hints;
  const body = /^#\s/m.test(input.content) ? input.content : `# ${title}\n\n${input.content}`;
  writeNewFileAtomic(file, `---\n${YAML.stringify(front)}---\n${body.endsWith('\n') ? body : body + '\n'}`);
  return { path: path.relative(fs.realpathSync(vaultDir), file).split(path.sep).join('/'), filed: direct, title };
}

export interface InboxListItem {
  path: string;
  title: string;
  excerpt: string;
  modified: string;
  bytes: number;
}

/** The notes waiting in `inbox/`, newest first. */
export function listInbox(vaultDir: string): InboxListItem[] {
  const dir = path.join(vaultDir, 'inbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md') && !e.name.startsWith('.'))
    .map((e) => {
      const file = path.join(dir, e.name);
      const st = fs.statSync(file);
      const text = fs.readFileSync(file, 'utf8');
      const body = text.replace(/^---\n[\s\S]*?\n---\n/, '');
      const fmTitle = /^title:\s*(.+)$/m.exec(/^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '')?.[1];
      const heading = /^#\s+(.+)$/m.exec(body)?.[1];
      const title = (fmTitle ?? heading ?? e.name.replace(/\.md$/, '')).replace(/^["']|["']$/g, '').trim();
      const excerpt = body.replace(/^#.*$/gm, '').replace(/\s+/g, ' ').trim().slice(0, 200);
      return { path: `inbox/${e.name}`, title, excerpt, modified: st.mtime.toISOString(), bytes: st.size };
    })
    .sort((a, b) => b.modified.localeCompare(a.modified));
}

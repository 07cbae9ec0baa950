/**
 * The vault's REST contract (`/api/vault/...`): the Vault page (search, notes, folders, reveal),
 * reindex, push and the commit log — zod schemas + inferred types, imported by the owner (which
 * builds the replies), the renderer and the CLI. No Node or DOM imports.
 */
import { z } from 'zod';
import { route } from './route';

/** `[start, end)` character offsets into `text` that matched the query. */
export const MatchRange = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]);
export type MatchRange = z.infer<typeof MatchRange>;

/** A snippet as plain text plus the ranges to highlight: never markup, never `[term]` markers. */
export const Snippet = z.object({ text: z.string(), matches: z.array(MatchRange) });
export type Snippet = z.infer<typeof Snippet>;

export const VaultSearchHit = z.object({
  path: z.string(),
  title: z.string(),
  folder: z.string(),
  score: z.number(),
  snippet: Snippet,
  /** Ranges of the title that matched a query word (case/accent-insensitive). */
  title_matches: z.array(MatchRange),
});
export type VaultSearchHit = z.infer<typeof VaultSearchHit>;

export const VaultSearchQuery = z.object({
  q: z.string().trim().min(1, 'q is empty; give one or more words, "a phrase" or a prefix*.').max(500),
  folder: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});
export const VaultSearchReply = z.object({
  query: z.string(),
  hits: z.array(VaultSearchHit),
  /** Offset of the next page, or null when this is the last one. */
  next_offset: z.number().int().nullable(),
});
export type VaultSearchReply = z.infer<typeof VaultSearchReply>;

/** One wikilink of a note, as written (`target`) and where it leads (`path`, null when no note matches). */
export const ResolvedLink = z.object({ target: z.string(), path: z.string().nullable() });
export type ResolvedLink = z.infer<typeof ResolvedLink>;

export const NoteRef = z.object({ path: z.string(), title: z.string(), folder: z.string() });
export type NoteRef = z.infer<typeof NoteRef>;

export const VaultNoteView = z.object({
  path: z.string(),
  title: z.string(),
  folder: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  /** Markdown body without the frontmatter block. */
  content: z.string(),
  /** Every distinct wikilink target in the note, resolved the way Obsidian does (path, then file name, then title/alias). */
  links: z.array(ResolvedLink),
  backlinks: z.array(NoteRef),
  modified: z.string().nullable(),
  size: z.number().int().nullable(),
  /** The vault folder's name, for obsidian://open?vault=… */
  vault_name: z.string(),
  /** `obsidian://open?vault=…&file=…` */
  obsidian_url: z.string(),
});
export type VaultNoteView = z.infer<typeof VaultNoteView>;

export const VaultNotesQuery = z.object({
  folder: z.string().max(500).default(''),
  /** Only notes directly in the folder (default) or in every subfolder too. */
  deep: z.enum(['0', '1']).default('0'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().max(1000).optional(),
});
export const VaultNotesReply = z.object({
  folder: z.string(),
  notes: z.array(NoteRef.extend({ modified: z.string() })),
  /** Pass as `cursor` for the next page; null at the end. */
  next_cursor: z.string().nullable(),
  total: z.number().int(),
});
export type VaultNotesReply = z.infer<typeof VaultNotesReply>;

export const VaultFolder = z.object({ path: z.string(), notes: z.number().int() });
export const VaultTreeReply = z.object({ folders: z.array(VaultFolder), total_notes: z.number().int() });
export type VaultTreeReply = z.infer<typeof VaultTreeReply>;

export const RevealBody = z.object({ path: z.string().min(1).max(1000) }).strict();
export const RevealReply = z.object({ ok: z.literal(true), path: z.string(), command: z.array(z.string()) });
export type RevealReply = z.infer<typeof RevealReply>;

/** The MCP resource URI of a note: `vault://note/<path, each segment percent-encoded>`. */
export const NOTE_URI_PREFIX = 'vault://note/';
export const noteUri = (path: string) => NOTE_URI_PREFIX + path.split('/').map(encodeURIComponent).join('/');

/** The Obsidian URL that opens a note (vault by folder name, file path without `.md`). */
export const obsidianUrl = (vaultName: string, path: string) =>
  `obsidian://open?vault=${encodeURIComponent(vaultName)}&file=${encodeURIComponent(path.replace(/\.md$/i, ''))}`;

export const ReindexReport = z.object({ scanned: z.number(), indexed: z.number(), unchanged: z.number(), removed: z.number(), ms: z.number() });
export type ReindexReport = z.infer<typeof ReindexReport>;

/** `?path=` of a note in the vault (normalized by the owner). */
const PathQuery = z.object({ path: z.string().default('') });

export const vaultRoutes = {
  /** Plain-text snippets with match ranges, pages by offset. */
  search: route('GET', '/api/vault/search', { query: VaultSearchQuery, reply: VaultSearchReply }),
  /** A note as the page shows it: brain_read_note's fields plus resolved wikilinks and backlinks. */
  note: route('GET', '/api/vault/note', { query: PathQuery, reply: VaultNoteView }),
  folders: route('GET', '/api/vault/folders', { reply: z.object({ folders: z.array(z.string()) }) }),
  tree: route('GET', '/api/vault/tree', { reply: VaultTreeReply }),
  notes: route('GET', '/api/vault/notes', { query: VaultNotesQuery, reply: VaultNotesReply }),
  backlinks: route('GET', '/api/vault/backlinks', { query: PathQuery, reply: z.object({ backlinks: z.array(NoteRef) }) }),
  reveal: route('POST', '/api/vault/reveal', { body: RevealBody, reply: RevealReply }),
  /** A full rebuild unless `full: false` (only what changed). */
  reindex: route('POST', '/api/vault/reindex', { body: z.object({ full: z.boolean().optional() }), reply: ReindexReport }),
  /** Pushes the vault to the configured git remote. */
  push: route('POST', '/api/vault/push', { reply: z.object({ ok: z.boolean(), ref: z.string() }) }),
  /** Mailroom's last 30 commits in the vault (none when it is not a git repository). */
  history: route('GET', '/api/vault/history', { reply: z.object({ commits: z.array(z.object({ oid: z.string(), message: z.string() })) }) }),
} as const;

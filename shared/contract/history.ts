/**
 * The History page's REST contract (`/api/history...`): every batch Mailroom committed or sent,
 * newest first, with a diff per batch and undo where undo is possible. zod schemas + inferred types
 * shared by the owner and the renderer.
 */
import { z } from 'zod';
import { route } from './route';

export const HistoryKind = z.enum(['inbox', 'undo', 'capture', 'memory', 'rule', 'routed', 'sent', 'vault']);
export type HistoryKind = z.infer<typeof HistoryKind>;

export const HistoryUndo = z.object({
  /** True when Undo would restore the files of this batch byte for byte. */
  possible: z.boolean(),
  /** Why not, when not possible (already undone, not reversible, …). */
  reason: z.string().nullable(),
  undone: z.boolean(),
});
export type HistoryUndo = z.infer<typeof HistoryUndo>;

export const HistoryEntry = z.object({
  /** `git:<oid>`, `inbox:<batch id>`, `routed:<run id>` or `sent:<idempotency key>`. */
  id: z.string(),
  kind: HistoryKind,
  title: z.string(),
  /** ISO time. */
  at: z.string(),
  source: z.enum(['git', 'inbox', 'router', 'mail']),
  commit: z.string().nullable(),
  /** Files the batch touched, when known. */
  files: z.number().int().nullable(),
  /** Inbox batch id (undo id) behind this entry, if any. */
  batch_id: z.string().nullable(),
  undo: HistoryUndo,
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const HistoryListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
  kind: HistoryKind.optional(),
});
export const HistoryListReply = z.object({
  entries: z.array(HistoryEntry),
  next_cursor: z.string().nullable(),
  /** False when the vault is not a git repository (only the journals are listed then). */
  git: z.boolean(),
});
export type HistoryListReply = z.infer<typeof HistoryListReply>;

export const FileChange = z.object({
  path: z.string(),
  from: z.string().nullable(),
  status: z.enum(['added', 'deleted', 'modified', 'moved']),
  /** Unified diff of the text (null for binary or identical bytes). */
  diff: z.string().nullable(),
  binary: z.boolean(),
  /** The diff was cut to keep the reply small. */
  truncated: z.boolean(),
});
export type FileChange = z.infer<typeof FileChange>;

export const HistoryDetail = z.object({
  entry: HistoryEntry,
  /** Full commit message / journal summary. */
  message: z.string(),
  changes: z.array(FileChange),
  /** For entries that are not file changes (routed items, sent mail): what happened, as key/values. */
  facts: z.array(z.tuple([z.string(), z.string()])),
});
export type HistoryDetail = z.infer<typeof HistoryDetail>;

export const HistoryUndoBody = z.object({ id: z.string().min(1).max(200) }).strict();
export const HistoryUndoReply = z.object({ id: z.string(), batch_id: z.string(), restored: z.array(z.string()), commit: z.string().nullable() });
export type HistoryUndoReply = z.infer<typeof HistoryUndoReply>;

export const historyRoutes = {
  /** Newest first, `limit` (1–200, default 50) per page, `cursor` from the previous page, optional `kind`. */
  list: route('GET', '/api/history', { query: HistoryListQuery, reply: HistoryListReply }),
  /** One entry with its diff (`?id=`). */
  entry: route('GET', '/api/history/entry', { query: z.object({ id: z.string().default('') }), reply: HistoryDetail }),
  undo: route('POST', '/api/history/undo', { body: HistoryUndoBody, reply: HistoryUndoReply }),
} as const;

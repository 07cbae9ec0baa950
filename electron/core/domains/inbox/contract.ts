import { z } from 'zod';

export const ACTIONS = ['move', 'keep', 'delete', 'merge'] as const;
export type InboxAction = (typeof ACTIONS)[number];

export const ProcessingHints = z
  .object({
    category: z.string().max(300).optional().describe('Destination folder, e.g. work/meetings'),
    tags: z.array(z.string().max(60)).max(30).optional(),
    skip_inbox: z.boolean().optional().describe('File directly into category instead of the inbox'),
    entities: z.array(z.string().max(120)).max(30).optional().describe('People, projects, places the item is about'),
    related_notes: z.array(z.string().max(500)).max(30).optional().describe('Vault paths of related notes'),
    source: z.string().max(200).optional().describe('Where it came from (chat, email, web …)'),
  })
  .strict();
export type ProcessingHints = z.infer<typeof ProcessingHints>;

export const AnalysisItem = z.object({
  path: z.string(),
  title: z.string(),
  summary: z.string(),
  entities: z.array(z.string()),
  entity_locations: z.record(z.string(), z.array(z.string())),
  suggested_action: z.enum(ACTIONS),
  destination: z.string().nullable(),
  confidence: z.number(),
  reasoning: z.string(),
  rules_matched: z.array(z.string()),
});
export type AnalysisItem = z.infer<typeof AnalysisItem>;

export const AnalyzeResult = z.object({
  items: z.array(AnalysisItem),
  rules_loaded: z.boolean(),
  rules_applied: z.array(z.string()),
  rules_unparsed: z.array(z.string()),
  items_skipped: z.array(z.string()),
  /** Suggestions below the rules' confidence threshold: shown for review, not turned into keep. */
  needs_review: z.array(z.string()).optional(),
  threshold: z.number().optional(),
});
export type AnalyzeResult = z.infer<typeof AnalyzeResult>;

export const ActionInput = z
  .object({
    path: z.string().min(1).max(1000),
    action: z.enum(ACTIONS),
    destination: z.string().max(1000).optional().describe('move: a folder or a .md path; merge: the note to append to'),
  })
  .strict();
export type ActionInput = z.infer<typeof ActionInput>;

export const ActionResult = z.object({
  path: z.string(),
  action: z.enum(ACTIONS),
  status: z.enum(['done', 'planned', 'kept', 'error']),
  destination: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type ActionResult = z.infer<typeof ActionResult>;

export const ExecuteResult = z.object({
  results: z.array(ActionResult),
  commit: z.string().nullable(),
  undo_id: z.string().nullable(),
  dry_run: z.boolean(),
});
export type ExecuteResult = z.infer<typeof ExecuteResult>;

export const UndoResult = z.object({
  undo_id: z.string(),
  restored: z.array(z.string()),
  commit: z.string().nullable(),
});
export type UndoResult = z.infer<typeof UndoResult>;

/** The inbox's contract: MCP tool shapes and the REST routes of the Inbox page (`/api/inbox`). zod only. */
import { z } from 'zod';
import { route } from './route';

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

/** A rule line proposed after repeated edits toward one folder. */
export const RuleSuggestion = z.object({ id: z.number(), keyword: z.string(), folder: z.string(), line: z.string(), support: z.number(), status: z.enum(['open', 'accepted', 'dismissed']) });
export type RuleSuggestion = z.infer<typeof RuleSuggestion>;

/** GET /api/inbox: the inbox as analysed, with the review threshold and rule suggestions. */
export const InboxList = AnalyzeResult.extend({ count: z.number(), threshold: z.number(), rule_suggestions: z.array(RuleSuggestion) });
export type InboxList = z.infer<typeof InboxList>;

/** The person's decision for one item on the Inbox page. */
export interface Decision {
  action: InboxAction;
  destination?: string;
}

/** One labelled example kept from review (`mailroom inbox examples`). */
export const ExampleRow = z.object({
  path: z.string(),
  title: z.string(),
  label: z.string().nullable(),
  edited: z.boolean(),
  suggested_destination: z.string().nullable(),
  created_at: z.string(),
});
export type ExampleRow = z.infer<typeof ExampleRow>;

export const CaptureBody = z.object({
  content: z.string().optional(),
  text: z.string().optional(),
  title: z.string().optional(),
  source: z.string().optional(),
  files: z.array(z.object({ name: z.string(), content: z.string(), encoding: z.literal('base64').optional() })).optional(),
});

// ---------- the MCP tools' inputs (also the REST bodies of the same actions) ----------

export const AnalyzeInput = z
  .object({
    paths: z.array(z.string().max(1000)).max(100).optional().describe('Only these items (default: everything in inbox/)'),
    limit: z.number().int().min(1).max(100).optional().describe('Max items (default 20)'),
  })
  .strict();
export const ExecuteInput = z.object({ actions: z.array(ActionInput).min(1).max(200), dry_run: z.boolean().optional() }).strict();
export const UndoInput = z.object({ undo_id: z.string().min(1).max(100) }).strict();
export const InboxSaveInput = z
  .object({
    content: z.string().min(1).max(1_000_000).describe('Markdown text of the note'),
    title: z.string().max(200).optional(),
    processing_hints: ProcessingHints.optional(),
  })
  .strict();
export const InboxSaveResult = z.object({ path: z.string(), filed: z.boolean(), commit: z.string().optional() });

/** One executed (or undone) batch of the inbox journal. */
export const BatchRow = z.object({ id: z.string(), kind: z.string(), status: z.string(), created_at: z.string(), git_commit: z.string().nullable() });

export const inboxRoutes = {
  list: route('GET', '/api/inbox', { reply: InboxList }),
  analyze: route('POST', '/api/inbox/analyze', { body: AnalyzeInput, reply: AnalyzeResult }),
  execute: route('POST', '/api/inbox/execute', { body: ExecuteInput, reply: ExecuteResult }),
  undo: route('POST', '/api/inbox/undo', { body: UndoInput, reply: UndoResult }),
  save: route('POST', '/api/inbox/save', { body: InboxSaveInput, reply: InboxSaveResult }),
  /** Text and/or files (base64) from the Capture page; each field is checked by the owner with its own message. */
  capture: route('POST', '/api/inbox/capture', { body: CaptureBody, reply: z.object({ path: z.string().optional(), saved: z.array(z.unknown()) }).passthrough() }),
  /** The last 20 batches of the journal. */
  batches: route('GET', '/api/inbox/batches', { reply: z.object({ batches: z.array(BatchRow) }) }),
  /** The labelled examples as JSON Lines (a file download, not JSON). */
  examplesJsonl: route('GET', '/api/inbox/examples.jsonl', { reply: z.string() }),
  examples: route('GET', '/api/inbox/examples', { reply: z.object({ count: z.number(), examples: z.array(ExampleRow) }) }),
  ruleSuggestions: route('GET', '/api/inbox/rules/suggestions', { reply: z.object({ suggestions: z.array(RuleSuggestion) }) }),
  /** Appends the rule line to the rules note (committed). */
  acceptRule: route('POST', '/api/inbox/rules/suggestions/:id/accept', { body: z.object({}), reply: z.object({ line: z.string(), path: z.string(), commit: z.string().optional() }) }),
  dismissRule: route('POST', '/api/inbox/rules/suggestions/:id/dismiss', { body: z.object({}), reply: RuleSuggestion }),
} as const;

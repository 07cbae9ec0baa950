import { defineTool } from '../../../kernel/tool';
import { ExecuteInput, ExecuteResult, type ActionInput } from '../contract';

export const inboxExecuteTool = (execute: (a: { actions: ActionInput[]; dry_run?: boolean }, origin?: string) => Promise<ExecuteResult>) =>
  defineTool({
    name: 'inbox_execute',
    title: 'File inbox items',
    description:
      'Executes approved inbox actions as one batch: move (destination = folder or .md path; never overwrites, adds -2 instead), merge (destination = note to append to, under a dated heading), delete (to the trash in the data dir; kept in git history), keep. Journaled, crash-safe, one git commit. Returns per-action results, the commit and an undo_id for inbox_undo. dry_run: true plans without touching files. Every decision is kept as a labelled example (the next inbox_analyze learns from it; undo withdraws it).',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    input: ExecuteInput,
    output: ExecuteResult,
    handler: (args, ctx) => execute(args, ctx.origin === 'api' ? 'review' : ctx.origin),
  });

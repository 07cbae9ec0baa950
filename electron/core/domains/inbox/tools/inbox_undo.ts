import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import { UndoResult } from '../contract';

export const inboxUndoTool = (undo: (undoId: string) => Promise<UndoResult>) =>
  defineTool({
    name: 'inbox_undo',
    title: 'Undo an inbox batch',
    description: 'Restores every file an inbox_execute batch touched, byte for byte, and commits that. Refuses (conflict) if a file was edited since.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    input: z.object({ undo_id: z.string().min(1).max(100) }).strict(),
    output: UndoResult,
    handler: (args) => undo(args.undo_id),
  });

import { defineTool } from '../../../kernel/tool';
import { UndoInput, UndoResult } from '../contract';

export const inboxUndoTool = (undo: (undoId: string) => Promise<UndoResult>) =>
  defineTool({
    name: 'inbox_undo',
    title: 'Undo an inbox batch',
    description: 'Restores every file an inbox_execute batch touched, byte for byte, and commits that. Refuses (conflict) if a file was edited since.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    input: UndoInput,
    output: UndoResult,
    handler: (args) => undo(args.undo_id),
  });

import { defineTool } from '../../../kernel/tool';
import { InboxSaveInput, InboxSaveResult } from '../contract';
import type { SaveInput, SaveResult } from '../capture';

export const brainInboxSaveTool = (save: (input: SaveInput) => Promise<SaveResult>) =>
  defineTool({
    name: 'brain_inbox_save',
    title: 'Save to the inbox',
    description:
      'Saves a note into the vault inbox (inbox/<date>-<slug>.md) for the person to review and file. processing_hints help filing later: category (a folder), tags, entities, related_notes, source. With skip_inbox: true and a category, the note is filed into that folder directly (journaled and committed).',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    input: InboxSaveInput,
    output: InboxSaveResult,
    handler: (args) => save(args),
  });

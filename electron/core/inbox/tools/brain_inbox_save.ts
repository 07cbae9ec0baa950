import { z } from 'zod';
import { defineTool } from '../../common/tool';
import { SaveInput } from '../capture';
import type { InboxApi } from '../index';

export function brainInboxSaveTool(inbox: InboxApi) {
  return defineTool({
    name: 'brain_inbox_save',
    title: 'Save to the inbox',
    description:
      "Save a note to the user's vault inbox for review. processing_hints (category = a vault folder, tags, entities, related_notes, source) are kept in the note's frontmatter; with skip_inbox and a category the note is filed there directly.",
    input: SaveInput,
    output: z.object({ path: z.string(), filed: z.boolean(), title: z.string() }),
    handler: (args) => inbox.save(args),
  });
}

import { defineTool } from '../../../kernel/tool';
import type { MemoryService } from '../service';
import { SaveMemoryInput, SaveMemoryResult } from '../../../../../shared/contract/memory';

export const saveMemoryTool = (svc: MemoryService) =>
  defineTool({
    name: 'save_memory',
    title: 'Save a memory',
    description:
      'Stores something worth remembering as a markdown note in the vault\'s memory/ folder (frontmatter: entities, tags, strength, created), versioned with the vault. Entities, tags and strength are filled in by the on-device models when omitted. If a near-identical memory exists it is returned and merged into (tags/entities united, strength raised) instead of writing a second copy; pass on_duplicate: "create" to save anyway.',
    input: SaveMemoryInput,
    output: SaveMemoryResult,
    handler: async (args) => svc.save(args),
  });

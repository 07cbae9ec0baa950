import { defineTool } from '../../../kernel/tool';
import type { MemoryService } from '../service';
import { SearchMemoryInput, SearchMemoryResult } from '../../../../../shared/contract/memory';

export const searchMemoryTool = (svc: MemoryService) =>
  defineTool({
    name: 'search_memory',
    title: 'Search memories',
    description:
      'Finds saved memories by words and meaning-alike wording, optionally only those with all the given entities and tags. Returns memories ranked by score (0–1), best first.',
    annotations: { readOnlyHint: true },
    input: SearchMemoryInput,
    output: SearchMemoryResult,
    handler: async (args) => svc.search(args),
  });

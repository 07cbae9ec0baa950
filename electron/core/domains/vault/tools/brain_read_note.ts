import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import type { VaultApi } from '../api';

export const brainReadNoteTool = (vault: Pick<VaultApi, 'readNote'>) =>
  defineTool({
    name: 'brain_read_note',
    title: 'Read a note',
    description: 'Reads one note from the vault by its vault-relative path (e.g. projects/atlas.md): title, frontmatter and markdown content.',
    annotations: { readOnlyHint: true },
    input: z.object({ path: z.string().min(1).max(1000).describe('Vault-relative path, e.g. inbox/idea.md') }).strict(),
    output: z.object({
      path: z.string(),
      title: z.string(),
      frontmatter: z.record(z.string(), z.unknown()),
      content: z.string(),
    }),
    handler: (args) => vault.readNote(args.path),
  });

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, startTestOwner, waitFor, type TestOwner } from '../../helpers/owner';

/**
 * inbox_analyze reuses the analyses it (or the automatic analysis of new items) made while
 * nothing they depend on changed; an edit of the item or of the vault gives a fresh one.
 */
const VAULT: Record<string, string> = {
  'studio/glazes.md': '# Glazes\n\nCeladon glaze over porcelain; dip for three seconds. Tenmoku breaks brown on the rims of bowls.\n',
  'studio/throwing.md': '# Throwing\n\nCentre the clay on the wheel, open, pull the walls in three passes. Trim bowls when leather hard.\n',
  'garden/beans.md': '# Beans\n\nRunner beans on the hazel poles; water the beans in the evening, pick the beans young.\n',
  'garden/onions.md': '# Onions\n\nOnion sets in March; lift the onions when the tops fall over and dry them on the bench.\n',
  'inbox/firing.md': '# Firing notes\n\nGlaze the bowls with celadon over the porcelain, tenmoku on the rims, trim when leather hard.\n',
};

interface Analysis {
  items: Array<{ path: string; suggested_action: string; destination: string | null; confidence: number }>;
}
const folderOf = (a: Analysis, p: string) => path.posix.dirname(a.items.find((i) => i.path === p)?.destination ?? '');

describe('inbox_analyze reuses analyses until the item or the vault changes', () => {
  let owner: TestOwner | undefined;
  afterAll(async () => owner?.close());

  it('answers the same twice, then follows an edit of the vault and an edit of the item', async () => {
    owner = await startTestOwner({ vaultFiles: VAULT });
    const mcp = await owner.mcp();
    const first = await callTool<Analysis>(mcp, 'inbox_analyze', {});
    expect(folderOf(first, 'inbox/firing.md')).toBe('studio');
    expect(await callTool<Analysis>(mcp, 'inbox_analyze', {})).toEqual(first);

    // The vault changes: a kiln folder whose notes are all about glazing bowls with celadon and tenmoku.
    const kiln = 'Celadon and tenmoku glaze on porcelain bowls, rims trimmed leather hard; glaze the bowls, fire the bowls.';
    fs.mkdirSync(path.join(owner.vaultDir, 'kiln'), { recursive: true });
    for (let i = 0; i < 4; i++) fs.writeFileSync(path.join(owner.vaultDir, 'kiln', `bowls-${i}.md`), `# Bowls ${i}\n\n${kiln} zqkiln${i}\n`);
    await waitFor(() => callTool<{ hits: unknown[] }>(mcp, 'brain_search', { query: 'zqkiln3' }), (r) => r.hits.length > 0, 20_000, 'the new notes searchable');
    const afterVault = await callTool<Analysis>(mcp, 'inbox_analyze', {});
    expect(folderOf(afterVault, 'inbox/firing.md')).toBe('kiln');

    // The item changes: now it is about beans.
    fs.writeFileSync(path.join(owner.vaultDir, 'inbox', 'firing.md'), '# Bean notes\n\nRunner beans up the hazel poles; water the beans in the evening and pick them young.\n');
    await waitFor(() => callTool<Analysis>(mcp, 'inbox_analyze', {}), (a) => folderOf(a, 'inbox/firing.md') === 'garden', 20_000, 'the edited item analysed again');
  }, 60_000);
});

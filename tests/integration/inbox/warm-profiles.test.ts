import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, startTestOwner, waitFor, type TestOwner } from '../../helpers/owner';
import type { StatusDto } from '../../../shared/contract';

/**
 * The folder profiles filing compares items against are built in the background once the vault
 * index is ready, and again after notes change: the first inbox_analyze after start answers from
 * them (GET /api/status counts the builds a request had to make: none), and so does the first
 * one after new notes arrived.
 */
const TOPICS: Record<string, string> = {
  studio: 'celadon glaze porcelain bowls tenmoku rims trim leather hard wheel clay kiln',
  garden: 'runner beans hazel poles onions sets lift dry bench compost mulch seedlings',
  taxes: 'invoice receipts deductible quarterly return accountant pension allowance',
  cycling: 'gravel bike chain cassette tyres tubeless saddle climb descent cadence',
};

function vaultFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [folder, words] of Object.entries(TOPICS)) {
    const w = words.split(' ');
    for (let i = 0; i < 60; i++) {
      const body = Array.from({ length: 30 }, (_, j) => w[(i * 7 + j * 3) % w.length]).join(' ');
      out[`${folder}/note-${i}.md`] = `# ${w[i % w.length]} ${w[(i + 5) % w.length]} ${i}\n\n${body}\n`;
    }
  }
  return out;
}

interface Analysis {
  items: Array<{ path: string; destination: string | null }>;
}
const folderOf = (a: Analysis, p: string) => path.posix.dirname(a.items.find((i) => i.path === p)?.destination ?? '');

describe('folder profiles are warm before the first analysis', () => {
  let owner: TestOwner | undefined;
  afterAll(async () => owner?.close());

  it('the first inbox_analyze after the index is ready, and after new notes, builds no profiles', async () => {
    owner = await startTestOwner({ vaultFiles: vaultFiles() });
    const o = owner;
    const status = async () => (await o.api<StatusDto>('GET', '/api/status')).body;
    const warm = await waitFor(status, (s) => s.index.state === 'ready' && s.profiles?.state === 'warm', 60_000, 'profiles warm after indexing');
    expect(warm.profiles).toMatchObject({ background: 1, request: 0 });

    fs.mkdirSync(path.join(o.vaultDir, 'inbox'), { recursive: true });
    fs.writeFileSync(path.join(o.vaultDir, 'inbox', 'firing.md'), '# Firing\n\nGlaze the porcelain bowls celadon, tenmoku on the rims, trim leather hard.\n');
    fs.writeFileSync(path.join(o.vaultDir, 'inbox', 'ride.md'), '# Ride\n\nNew tubeless tyres and a cassette for the gravel bike before the climb.\n');
    const mcp = await o.mcp();
    await waitFor(() => callTool<{ hits: unknown[] }>(mcp, 'brain_search', { query: 'tubeless cassette' }), (r) => r.hits.length > 0, 20_000, 'the items indexed');
    const first = await callTool<Analysis>(mcp, 'inbox_analyze', {});
    expect(folderOf(first, 'inbox/firing.md')).toBe('studio');
    expect(folderOf(first, 'inbox/ride.md')).toBe('cycling');
    expect((await status()).profiles).toMatchObject({ request: 0 });

    // New notes: a kiln folder about exactly what the first item says.
    const kiln = 'Glaze the porcelain bowls celadon, tenmoku on the rims, fire the kiln, trim leather hard.';
    fs.mkdirSync(path.join(o.vaultDir, 'kiln'), { recursive: true });
    for (let i = 0; i < 6; i++) fs.writeFileSync(path.join(o.vaultDir, 'kiln', `firing-${i}.md`), `# Firing ${i}\n\n${kiln} zqkiln${i}\n`);
    await waitFor(() => callTool<{ hits: unknown[] }>(mcp, 'brain_search', { query: 'zqkiln5' }), (r) => r.hits.length > 0, 20_000, 'the new notes searchable');
    await waitFor(status, (s) => s.profiles?.state === 'warm' && s.profiles.background >= 2, 60_000, 'profiles rebuilt in the background');
    const after = await callTool<Analysis>(mcp, 'inbox_analyze', {});
    expect(folderOf(after, 'inbox/firing.md')).toBe('kiln');
    expect((await status()).profiles).toMatchObject({ request: 0 });
  }, 120_000);
});

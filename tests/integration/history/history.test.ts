import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOwner, tempDir, writeFiles, type TestOwner } from '../../helpers/owner';
import type { HistoryDetail, HistoryListReply, HistoryUndoReply } from '../../../shared/contract/history';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

const VAULT = {
  'inbox/peas.md': '# Peas\nSow the peas in March.\n',
  'inbox/owen-swim.md': '# Owen swim meet\nSaturday at the Westside pool.\n',
  'garden/plan.md': '# Garden plan\nBeds: peas, beans.\n',
  'family/owen.md': '# Owen\nSwims on Saturdays.\n',
};

async function ownerWith(gitInit: boolean): Promise<TestOwner> {
  const dataDir = tempDir('mailroom-data-');
  const vaultDir = tempDir('mailroom-vault-');
  writeFiles(vaultDir, VAULT);
  if (gitInit) fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ git_init: true }));
  return startTestOwner({ dataDir, vaultDir });
}

describe('history with a git vault', () => {
  let owner: TestOwner;
  beforeAll(async () => {
    owner = await ownerWith(true);
  });
  afterAll(async () => owner?.close());

  it('lists Mailroom’s own commits newest first (not the person’s), with a diff per batch, and undoes an inbox batch', async () => {
    // The person's own commit is not Mailroom's history.
    fs.writeFileSync(path.join(owner.vaultDir, 'mine.md'), '# Mine\n');
    git(owner.vaultDir, 'add', 'mine.md');
    git(owner.vaultDir, '-c', 'user.name=Person', '-c', 'user.email=p@example.com', 'commit', '-q', '-m', 'my own edit');

    const ex = await owner.api<{ undo_id: string; commit: string }>('POST', '/api/inbox/execute', {
      actions: [
        { path: 'inbox/peas.md', action: 'move', destination: 'garden/' },
        { path: 'inbox/owen-swim.md', action: 'merge', destination: 'family/owen.md' },
      ],
    });
    expect(ex.status).toBe(200);
    const list = await owner.api<HistoryListReply>('GET', '/api/history');
    expect(list.status).toBe(200);
    expect(list.body.git).toBe(true);
    const titles = list.body.entries.map((e) => e.title);
    expect(titles.some((t) => t.includes('my own edit'))).toBe(false);
    const top = list.body.entries[0];
    expect(top).toMatchObject({ kind: 'inbox', commit: ex.body.commit, batch_id: ex.body.undo_id, undo: { possible: true, reason: null } });
    if (!top) throw new Error('the history list is empty');
    expect(list.body.entries.at(-1)).toMatchObject({ kind: 'vault', title: 'initial commit of the vault', undo: { possible: false } });

    const d = await owner.api<HistoryDetail>('GET', `/api/history/entry?id=${encodeURIComponent(top.id)}`);
    expect(d.status).toBe(200);
    expect(d.body.message).toContain(`undo id: ${ex.body.undo_id}`);
    const byPath = new Map(d.body.changes.map((c) => [c.path, c]));
    expect(byPath.get('garden/peas.md')).toMatchObject({ status: 'moved', from: 'inbox/peas.md', diff: null });
    expect(byPath.get('inbox/owen-swim.md')).toMatchObject({ status: 'deleted' });
    const merged = byPath.get('family/owen.md')!;
    expect(merged.status).toBe('modified');
    expect(merged.diff).toContain('--- a/family/owen.md\n+++ b/family/owen.md\n@@ ');
    expect(merged.diff).toMatch(/^\+Saturday at the Westside pool\.$/m);
    expect(merged.diff).toMatch(/^ Swims on Saturdays\.$/m);

    const u = await owner.api<HistoryUndoReply>('POST', '/api/history/undo', { id: top.id });
    expect(u.status).toBe(200);
    expect(u.body.restored.sort()).toEqual(['family/owen.md', 'inbox/owen-swim.md', 'inbox/peas.md']);
    expect(fs.readFileSync(path.join(owner.vaultDir, 'inbox/peas.md'), 'utf8')).toBe(VAULT['inbox/peas.md']);
    expect(fs.readFileSync(path.join(owner.vaultDir, 'family/owen.md'), 'utf8')).toBe(VAULT['family/owen.md']);
    expect(fs.existsSync(path.join(owner.vaultDir, 'garden/peas.md'))).toBe(false);

    const after = await owner.api<HistoryListReply>('GET', '/api/history');
    expect(after.body.entries[0]).toMatchObject({ kind: 'undo', undo: { possible: false } });
    const executed = after.body.entries.find((e) => e.id === top.id)!;
    expect(executed.undo).toEqual({ possible: false, reason: 'Already undone.', undone: true });
    const again = await owner.api<{ code: string; message: string }>('POST', '/api/history/undo', { id: top.id });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'undo_not_possible', message: 'Already undone.' });
  });

  it('captures say why they cannot be undone; bad ids and cursors are clear errors', async () => {
    const cap = await owner.api('POST', '/api/inbox/capture', { text: 'Call the plumber about the boiler', title: 'Plumber' });
    expect(cap.status).toBe(200);
    const list = await owner.api<HistoryListReply>('GET', '/api/history?kind=capture');
    expect(list.body.entries.length).toBeGreaterThan(0);
    expect(list.body.entries[0]?.undo.possible).toBe(false);
    expect(list.body.entries[0]?.undo.reason).toMatch(/capture only adds a note/);
    const d = await owner.api<HistoryDetail>('GET', `/api/history/entry?id=${encodeURIComponent(list.body.entries[0]?.id ?? '')}`);
    expect(d.body.changes[0]?.status).toBe('added');
    expect(d.body.changes[0]?.diff).toMatch(/^\+.*plumber/im);
    const refused = await owner.api<{ code: string }>('POST', '/api/history/undo', { id: list.body.entries[0]?.id });
    expect(refused.status).toBe(409);
    expect((await owner.api<{ code: string }>('GET', '/api/history/entry?id=git:nope')).body.code).toBe('history_not_found');
    expect((await owner.api<{ code: string }>('GET', '/api/history?cursor=zzz')).body.code).toBe('invalid_argument');
    const p1 = await owner.api<HistoryListReply>('GET', '/api/history?limit=1');
    const p2 = await owner.api<HistoryListReply>('GET', `/api/history?limit=1&cursor=${p1.body.next_cursor}`);
    expect(p2.body.entries[0]?.id).not.toBe(p1.body.entries[0]?.id);
  });
});

describe('history without git', () => {
  it('lists inbox batches from the journal with their moves, and undoes them', async () => {
    const owner = await ownerWith(false);
    try {
      const ex = await owner.api<{ undo_id: string; commit: string | null }>('POST', '/api/inbox/execute', { actions: [{ path: 'inbox/peas.md', action: 'move', destination: 'garden/' }] });
      expect(ex.body.commit).toBeNull();
      const list = await owner.api<HistoryListReply>('GET', '/api/history');
      expect(list.body.git).toBe(false);
      expect(list.body.entries[0]).toMatchObject({ id: `inbox:${ex.body.undo_id}`, kind: 'inbox', undo: { possible: true } });
      const d = await owner.api<HistoryDetail>('GET', `/api/history/entry?id=inbox:${ex.body.undo_id}`);
      expect(d.body.changes).toEqual([{ path: 'garden/peas.md', from: 'inbox/peas.md', status: 'moved', diff: null, binary: false, truncated: false }]);
      const u = await owner.api<HistoryUndoReply>('POST', '/api/history/undo', { id: `inbox:${ex.body.undo_id}` });
      expect(u.status).toBe(200);
      expect(fs.existsSync(path.join(owner.vaultDir, 'inbox/peas.md'))).toBe(true);
    } finally {
      await owner.close();
    }
  });
});

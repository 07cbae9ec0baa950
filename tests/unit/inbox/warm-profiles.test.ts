/**
 * The folder profiles built in background slices (warmProfiles) are the ones a request would
 * build at once, the event loop runs between slices, and a request that needs the profiles
 * while a background build is under way finishes that build instead of starting another.
 * On a real vault (tests/fixtures/vault-dev3, in-sample).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VaultIndex, catchUp, listNoteFiles, parseNote } from '../../../electron/core/domains/vault';
import { isDestination } from '../../../electron/core/domains/inbox/analyze';
import { folderProfiles, profilesState, rankFolders, warmProfiles, type Profiles } from '../../../electron/core/domains/inbox/profiles';
import { tempDir } from '../../helpers/owner';

const ROOT = path.resolve(__dirname, '../../fixtures/vault-dev3/vault');

function openIndex(): VaultIndex {
  const index = new VaultIndex(path.join(tempDir('mailroom-warm-'), 'index.db'));
  catchUp(index, ROOT);
  return index;
}

/** What filing reads from the profiles, for every inbox item of the vault. */
function answers(p: Profiles): unknown[] {
  return listNoteFiles(ROOT)
    .filter((r) => r.startsWith('inbox/'))
    .map((rel) => {
      const note = parseNote(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8'));
      const v = p.vector(note.body, note.title, note.tags);
      return { rel, near: p.nearest(v, 8), folders: rankFolders(p, v), vec: [...v] };
    });
}

describe('folder profiles built in the background', () => {
  it('equal the profiles built at once, and let the event loop run between slices', async () => {
    const a = openIndex();
    const b = openIndex();
    try {
      const atOnce = folderProfiles(a, isDestination);
      let turns = 0;
      const tick = setInterval(() => turns++, 0);
      expect(profilesState(b).state).toBe('cold');
      const warm = warmProfiles(b, isDestination, { sliceMs: 0 });
      expect(profilesState(b).state).toBe('building');
      const sliced = await warm;
      clearInterval(tick);
      expect(sliced).toBeDefined();
      expect(turns).toBeGreaterThan(0);
      expect(profilesState(b)).toMatchObject({ state: 'warm', background: 1, request: 0 });
      // A request now gets the same object without building anything.
      expect(folderProfiles(b, isDestination)).toBe(sliced);
      expect(profilesState(b).request).toBe(0);
      expect(sliced!.docs).toBe(atOnce.docs);
      expect(sliced!.folders.map((f) => [f.folder, f.notes, f.people, [...f.centroid], [...f.vocab], [...f.shapes]])).toEqual(
        atOnce.folders.map((f) => [f.folder, f.notes, f.people, [...f.centroid], [...f.vocab], [...f.shapes]]),
      );
      expect(answers(sliced!)).toEqual(answers(atOnce));
    } finally {
      a.close();
      b.close();
    }
  });

  it('is finished by a request that needs the profiles meanwhile, not built twice', async () => {
    const index = openIndex();
    try {
      const warm = warmProfiles(index, isDestination, { sliceMs: 0 });
      expect(profilesState(index).state).toBe('building');
      const now = folderProfiles(index, isDestination);
      expect(profilesState(index)).toMatchObject({ state: 'warm', background: 0, request: 1 });
      expect(await warm).toBe(now);
      expect(profilesState(index)).toMatchObject({ background: 0, request: 1 });
    } finally {
      index.close();
    }
  });

  it('after a note changes, is stale until rebuilt, and the rebuild equals a fresh build', async () => {
    const index = openIndex();
    try {
      const before = await warmProfiles(index, isDestination, { sliceMs: 0 });
      const note = index.all().find((r) => isDestination(r.folder) && !r.path.includes('/people/'))!;
      const abs = path.join(ROOT, note.path);
      // The index says the note changed (its file is unchanged: only the stored hash moves).
      index.upsert(note.path, fs.readFileSync(abs, 'utf8') + '\n', fs.statSync(abs));
      expect(profilesState(index).state).toBe('stale');
      const after = await warmProfiles(index, isDestination, { sliceMs: 0 });
      expect(after).not.toBe(before);
      expect(profilesState(index)).toMatchObject({ state: 'warm', background: 2, request: 0 });
      const fresh = openIndex();
      try {
        fresh.upsert(note.path, fs.readFileSync(abs, 'utf8') + '\n', fs.statSync(abs));
        expect(answers(after!)).toEqual(answers(folderProfiles(fresh, isDestination)));
      } finally {
        fresh.close();
      }
    } finally {
      index.close();
    }
  });
});

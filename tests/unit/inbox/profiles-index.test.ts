/**
 * The folder profiles' indexes (term → notes for the nearest notes, term → folders for the
 * centroids) give what a direct cosine over every note and every centroid gives, on a real vault
 * (tests/fixtures/vault-dev3, in-sample) and every one of its inbox items.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VaultIndex, catchUp, listNoteFiles, parseNote } from '../../../electron/core/domains/vault';
import { isDestination } from '../../../electron/core/domains/inbox/analyze';
import { cosine, folderCosine, folderProfiles, rankFolders } from '../../../electron/core/domains/inbox/profiles';
import { tempDir } from '../../helpers/owner';

const ROOT = path.resolve(__dirname, '../../fixtures/vault-dev3/vault');

describe('folder profiles: nearest notes and folder ranking', () => {
  it('equal a direct cosine over every profiled note and every folder centroid', () => {
    const index = new VaultIndex(path.join(tempDir('mailroom-prof-'), 'index.db'));
    try {
      catchUp(index, ROOT);
      const p = folderProfiles(index, isDestination);
      const notes = index.all().filter((r) => isDestination(r.folder));
      expect(notes.length).toBeGreaterThan(20);
      const items = listNoteFiles(ROOT).filter((r) => r.startsWith('inbox/'));
      expect(items.length).toBeGreaterThan(5);
      for (const rel of items) {
        const note = parseNote(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8'));
        const v = p.vector(note.body, note.title, note.tags);
        const direct = notes
          .map((n) => ({ path: n.path, sim: cosine(v, p.noteVector(n.path) ?? new Map()) }))
          .filter((x) => x.sim > 0)
          .sort((a, b) => b.sim - a.sim || a.path.localeCompare(b.path));
        const near = p.nearest(v, 8);
        expect(near.length).toBe(Math.min(8, direct.length));
        for (const [i, h] of near.entries()) {
          expect(h.sim).toBeCloseTo(direct[i]?.sim ?? NaN, 12);
          // The same note, or one tied with it.
          if (h.path !== direct[i]?.path) expect(Math.abs(h.sim - (direct.find((d) => d.path === h.path)?.sim ?? -1))).toBeLessThan(1e-12);
        }
        // The reference: vectors.ts' cosine over the centroid as a Map (the form the profiles kept before).
        const folders = p.folders.map((f) => [f.folder, cosine(v, new Map(f.centroid))] as [string, number]).filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
        const ranked = rankFolders(p, v);
        expect(ranked.map(([f]) => f)).toEqual(folders.map(([f]) => f));
        for (const [i, [, s]] of ranked.entries()) expect(s).toBeCloseTo(folders[i]?.[1] ?? NaN, 12);
        for (const f of p.folders) expect(folderCosine(v, f)).toBe(cosine(v, new Map(f.centroid)));
      }
      // A person's or a candidate's text is read from the file when asked.
      const some = notes[0]!;
      expect(p.text(some.path)).toContain(some.title);
      expect(p.text('no/such-note.md')).toBeUndefined();
    } finally {
      index.close();
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeAnalysis, readNoteFromDisk, itemFromNote, resolveItem } from '../../../electron/core/domains/router/item';
import { tempDir } from '../../helpers/owner';

describe('what the router routes: items from notes and inbox analyses', () => {
  it('takes tags, intent, source and due date from frontmatter', () => {
    const item = itemFromNote({ path: 'inbox/a.md', title: 'Pay rent', frontmatter: { tags: ['#money', 'home'], type: 'task', due: new Date('2026-02-01T00:00:00Z') }, content: 'Before the 1st.' });
    expect(item).toMatchObject({ path: 'inbox/a.md', title: 'Pay rent', tags: ['money', 'home'], intent: 'task', source: 'note', date: '2026-02-01' });
  });

  it('folds in the inbox analysis: destination file → folder, entities added, the note title kept', () => {
    const base = itemFromNote({ path: 'inbox/m.md', title: 'Q1 planning meeting with Dana and the ops team', frontmatter: {}, content: '...' });
    const analysis = {
      items: [
        { path: 'inbox/other.md', title: 'x', destination: 'home/x.md', entities: ['Nobody'] },
        { path: 'inbox/m.md', title: 'Q1 planning…', summary: 's', entities: ['Dana'], destination: 'work/meetings/2026-q1-planning.md', suggested_action: 'move', confidence: 0.9 },
      ],
      rules_applied: [],
    };
    expect(mergeAnalysis(base, analysis, 'inbox/m.md')).toMatchObject({ title: 'Q1 planning meeting with Dana and the ops team', folder: 'work/meetings', entities: ['Dana'] });
    expect(mergeAnalysis(base, { items: [{ path: 'inbox/m.md', destination: 'people/' }] }, 'inbox/m.md').folder).toBe('people');
    expect(mergeAnalysis(base, { items: [] }, 'inbox/m.md')).toEqual(base);
  });

  it('reads a note from the vault folder only when the path stays inside it', async () => {
    const vault = tempDir();
    fs.mkdirSync(path.join(vault, 'inbox'));
    fs.writeFileSync(path.join(vault, 'inbox', 'n.md'), '---\ntags: [x]\n---\n# Hello\n\nBody\n');
    fs.symlinkSync('/etc', path.join(vault, 'inbox', 'etc'));
    expect(readNoteFromDisk(vault, 'inbox/n.md')).toMatchObject({ path: 'inbox/n.md', title: 'Hello', frontmatter: { tags: ['x'] } });
    expect(() => readNoteFromDisk(vault, '../n.md')).toThrow(/not a path inside the vault/);
    expect(() => readNoteFromDisk(vault, '/etc/passwd')).toThrow(/not a path inside the vault/);
    expect(() => readNoteFromDisk(vault, 'inbox/etc/hostname')).toThrow(/leads outside the vault/);
    expect(() => readNoteFromDisk(vault, 'inbox/none.md')).toThrow(/No note at inbox\/none.md/);
    // With the vault and inbox domains wired, they are used instead of the disk.
    const item = await resolveItem(
      { path: 'inbox/n.md' },
      { vaultDir: vault, vault: { readNote: (rel) => ({ path: rel, title: 'From vault', frontmatter: {}, content: 'c' }) }, inbox: { analyze: async () => ({ items: [{ path: 'inbox/n.md', destination: 'ideas', entities: ['Ada'] }] }) } },
    );
    expect(item).toMatchObject({ title: 'From vault', folder: 'ideas', entities: ['Ada'] });
  });
});

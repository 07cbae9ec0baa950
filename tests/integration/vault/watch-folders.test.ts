import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chokidarBatches } from '../../../electron/core/domains/vault/watch';

/**
 * The vault watcher (real chokidar on a real folder) watches folders, not notes: the number of
 * native watches follows the folders, and a note written, changed, renamed or removed anywhere
 * below — including in a folder created or moved in after start — still comes through.
 */
const fsWatches = () => process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;

describe('vault watcher on folders', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  function setup(notesPerFolder: number) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-watch-'));
    cleanups.push(() => fs.rmSync(root, { recursive: true, force: true }));
    for (const f of ['a', 'a/deep', 'b']) {
      fs.mkdirSync(path.join(root, f), { recursive: true });
      for (let i = 0; i < notesPerFolder; i++) fs.writeFileSync(path.join(root, f, `n${i}.md`), `# ${f} ${i}\n`);
    }
    const seen: string[] = [];
    const removedDirs: string[] = [];
    const waiters: Array<() => void> = [];
    const before = fsWatches();
    const b = chokidarBatches({
      root,
      stabilityMs: 30,
      onBatch: (paths, dirs) => {
        seen.push(...paths);
        removedDirs.push(...dirs);
        waiters.splice(0).forEach((w) => w());
      },
      onError: (e) => {
        throw e;
      },
    });
    cleanups.push(() => b.close());
    /** Resolves once `test` holds for what was handed over, or fails after 10 s. */
    const until = async (test: () => boolean, what: string) => {
      const deadline = Date.now() + 10_000;
      while (!test()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; seen ${JSON.stringify(seen)}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 500);
        });
      }
    };
    return { root, b, seen, removedDirs, until, before };
  }

  it('opens one watch per folder, not per note', async () => {
    const w = setup(60);
    await w.b.ready;
    const opened = fsWatches() - w.before;
    // root, a, a/deep, b — never 180 notes' worth.
    expect(opened).toBeGreaterThanOrEqual(1);
    expect(opened).toBeLessThanOrEqual(4);
  });

  it('hands over notes written, changed, renamed and removed in subfolders, and ignores other files', async () => {
    const w = setup(3);
    await w.b.ready;
    fs.writeFileSync(path.join(w.root, 'a/deep/new.md'), '# new\n');
    fs.appendFileSync(path.join(w.root, 'b/n1.md'), 'more\n');
    fs.writeFileSync(path.join(w.root, 'b/image.png'), 'x');
    await w.until(() => w.seen.includes('a/deep/new.md') && w.seen.includes('b/n1.md'), 'a new and a changed note');
    fs.renameSync(path.join(w.root, 'a/n0.md'), path.join(w.root, 'a/renamed.md'));
    fs.rmSync(path.join(w.root, 'b/n2.md'));
    await w.until(() => ['a/n0.md', 'a/renamed.md', 'b/n2.md'].every((p) => w.seen.includes(p)), 'a rename and a removal');
    expect(w.seen.filter((p) => !p.endsWith('.md'))).toEqual([]);
  });

  it('lists the notes of a folder created or moved in after start, and reports a removed folder', async () => {
    const w = setup(2);
    await w.b.ready;
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-watch-out-'));
    cleanups.push(() => fs.rmSync(outside, { recursive: true, force: true }));
    fs.mkdirSync(path.join(outside, 'inner'));
    fs.writeFileSync(path.join(outside, 'inner', 'moved.md'), '# moved\n');
    fs.renameSync(outside, path.join(w.root, 'moved-in'));
    fs.mkdirSync(path.join(w.root, 'fresh'));
    fs.writeFileSync(path.join(w.root, 'fresh', 'one.md'), '# one\n');
    await w.until(() => w.seen.includes('moved-in/inner/moved.md') && w.seen.includes('fresh/one.md'), 'notes in new folders');
    // A note written later into the new folder comes from that folder's own watch.
    fs.writeFileSync(path.join(w.root, 'fresh', 'two.md'), '# two\n');
    await w.until(() => w.seen.includes('fresh/two.md'), 'a note in a folder created after start');
    fs.rmSync(path.join(w.root, 'b'), { recursive: true });
    await w.until(() => w.removedDirs.includes('b'), 'the removed folder');
  });
});

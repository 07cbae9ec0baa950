/**
 * vaultReader (many reads, each folder checked once) answers exactly as the per-file rule
 * (tryReadVaultFile / vaultFileStat) on real folders with symlinks in and out of the vault,
 * hidden files and folders, a FIFO and a missing file.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tryReadVaultFile, vaultFileStat, vaultReader } from '../../../electron/core/domains/vault';

describe('vaultReader', () => {
  let tmp: string;
  let vault: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-reader-'));
    vault = path.join(tmp, 'vault');
    const outside = path.join(tmp, 'outside');
    const put = (p: string, text: string) => {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, text);
    };
    put(path.join(outside, 'secret.md'), 'OUTSIDE SECRET');
    put(path.join(outside, 'dir/deep.md'), 'OUTSIDE DEEP');
    put(path.join(vault, 'a.md'), 'root note');
    put(path.join(vault, 'notes/real.md'), 'real note');
    put(path.join(vault, 'notes/sub/deeper.md'), 'deeper note');
    put(path.join(vault, '.hidden/h.md'), 'hidden folder');
    put(path.join(vault, 'notes/.dot.md'), 'hidden file');
    put(path.join(vault, 'big/huge.md'), 'x'.repeat(5000));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(vault, 'notes/leak.md'));
    fs.symlinkSync(path.join(outside, 'dir'), path.join(vault, 'linked-out'));
    fs.symlinkSync(path.join(vault, 'notes'), path.join(vault, 'linked-in'));
    fs.symlinkSync(path.join(vault, 'notes/real.md'), path.join(vault, 'alias.md'));
    fs.symlinkSync(path.join(vault, '.hidden/h.md'), path.join(vault, 'to-hidden.md'));
    fs.symlinkSync(path.join(vault, 'nowhere.md'), path.join(vault, 'dangling.md'));
    fs.mkdirSync(path.join(vault, 'folder.md'));
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [path.join(vault, 'notes/pipe.md')]);
    }
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const cases = [
    'a.md',
    'notes/real.md',
    'notes/sub/deeper.md',
    './notes//real.md',
    '.hidden/h.md',
    'notes/.dot.md',
    'notes/leak.md',
    'linked-out/deep.md',
    'linked-in/real.md',
    'linked-in/sub/deeper.md',
    'alias.md',
    'to-hidden.md',
    'dangling.md',
    'missing.md',
    'missing/dir/x.md',
    'folder.md',
    'notes/pipe.md',
    '../outside/secret.md',
    '/etc/passwd',
    '',
  ];

  it('reads and stats exactly what the per-file rule reads and stats', () => {
    const reader = vaultReader(vault);
    for (const rel of cases) {
      const want = tryReadVaultFile(vault, rel);
      const got = reader.read(rel);
      expect({ rel, data: got?.data.toString('utf8'), real: got?.real, path: got?.rel }).toEqual({ rel, data: want?.data.toString('utf8'), real: want?.real, path: want?.rel });
      expect({ rel, size: reader.stat(rel)?.size }).toEqual({ rel, size: vaultFileStat(vault, rel)?.size });
    }
    // Nothing outside the vault or hidden came back.
    const all = cases.map((r) => reader.read(r)?.data.toString('utf8') ?? '').join('\n');
    expect(all).not.toMatch(/OUTSIDE|hidden/);
    expect(all).toContain('deeper note');
  });

  it('keeps the size limit', () => {
    const reader = vaultReader(vault);
    expect(reader.read('big/huge.md', { maxBytes: 100 })).toBeUndefined();
    expect(reader.read('big/huge.md', { maxBytes: 10_000 })?.data.length).toBe(5000);
  });
});

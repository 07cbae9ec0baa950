import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ftsQuery, normalizeRel, parseNote, resolveInVault } from '../../../electron/core/domains/vault';
import { tempDir } from '../../helpers/owner';

describe('parsing a note', () => {
  it('reads frontmatter with a real YAML parser: title, aliases, tags, and keeps the body', () => {
    const n = parseNote(
      'people/priya-nair.md',
      '---\ntitle: Priya Nair\naliases: [PN, "Priya"]\ntags:\n  - work\n  - "#team"\nmeta: { nested: [1, 2] }\n---\n# Heading ignored for title\nWorks with [[projects/atlas|Atlas]] and [[Owen#School]]. #Colleague `#notatag`\n',
    );
    expect(n.title).toBe('Priya Nair');
    expect(n.aliases).toEqual(['PN', 'Priya']);
    expect(n.tags.sort()).toEqual(['colleague', 'team', 'work']);
    expect(n.links).toEqual(['projects/atlas', 'Owen']);
    expect(n.frontmatter.meta).toEqual({ nested: [1, 2] });
    expect(n.body.startsWith('# Heading')).toBe(true);
  });

  it('falls back to the first heading, then the file name, for the title', () => {
    expect(parseNote('a/b.md', 'text\n# Real title\nmore').title).toBe('Real title');
    expect(parseNote('a/some-note.md', 'no heading').title).toBe('some-note');
  });

  it('never throws on broken YAML: the note keeps its text and reports the problem', () => {
    const n = parseNote('x.md', '---\ntitle: [unclosed\n---\nbody');
    expect(n.frontmatter).toEqual({});
    expect(n.frontmatterError).toBeTruthy();
    expect(n.body).toContain('body');
  });

  it('does not take headings or code for tags', () => {
    const n = parseNote('x.md', '# Title\n## Sub\n```\n#include <x>\n```\nreal #tag and issue #42');
    expect(n.tags).toEqual(['tag']);
  });
});

describe('search queries', () => {
  it('quotes terms so user input never becomes FTS syntax, keeps phrases and prefixes', () => {
    expect(ftsQuery('swim meet')).toBe('"swim" "meet"');
    expect(ftsQuery('"swim meet" sch*')).toBe('"swim meet" "sch"*');
    expect(ftsQuery('NEAR(a b) OR -x')).toBe('"NEAR a" "b" "OR" "x"');
    expect(ftsQuery('a b', 'OR')).toBe('"a" OR "b"');
    expect(ftsQuery('  ** ')).toBeUndefined();
  });
});

describe('vault paths', () => {
  it('accepts normal relative paths and rejects .., absolute paths, NUL and symlinks out', () => {
    const root = tempDir('vault-');
    const outside = tempDir('outside-');
    fs.mkdirSync(path.join(root, 'inbox'));
    fs.symlinkSync(outside, path.join(root, 'link'));
    expect(normalizeRel('./inbox//a.md')).toBe('inbox/a.md');
    expect(resolveInVault(root, 'inbox/new/deeper.md')).toBe(path.join(fs.realpathSync(root), 'inbox/new/deeper.md'));
    for (const bad of ['../x.md', 'inbox/../../x.md', '/etc/passwd', 'C:\\x.md', 'a\0b.md', 'link/x.md', 'link', '']) {
      let code: string | undefined;
      try {
        resolveInVault(root, bad);
      } catch (e) {
        code = (e as { code?: string }).code;
      }
      expect(code, JSON.stringify(bad)).toBe('path_outside_vault');
    }
  });
});

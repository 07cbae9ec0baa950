import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestOwner, tempDir, waitFor, type TestOwner } from '../../helpers/owner';
import type { VaultNoteView, VaultNotesReply, VaultSearchReply, VaultTreeReply } from '../../../shared/contract/vault';

const VAULT: Record<string, string> = {
  'projects/atlas.md':
    '---\ntitle: Atlas\nstatus: active\naliases: [Project Atlas]\n---\n# Atlas\nThe Atlas project ships in March. Owner: [[Priya Nair|Priya]]. See [[people/sam]] and [[Missing Note]].\n\n`[[not a link]]`\n',
  'people/Priya Nair.md': '# Priya Nair\nLeads [[atlas]] and swims on Saturdays.\n',
  'people/sam.md': '# Sam\nWorks on the [[Project Atlas]] launch.\n',
  'family/swim.md': '# Swim schedule\nSwim meet every second Saturday; swimming gear in the car.\n',
  '.obsidian/secret.md': 'swim secret [[Atlas]]\n',
};

const at = (text: string, r: [number, number]) => text.slice(r[0], r[1]);

describe('the Vault page REST contract', () => {
  let owner: TestOwner;
  beforeAll(async () => {
    owner = await startTestOwner({ vaultFiles: VAULT });
  });
  afterAll(async () => owner?.close());

  it('search returns plain-text snippets with match ranges (no markup, no [term] markers) and pages by offset', async () => {
    const r = await owner.api<VaultSearchReply>('GET', '/api/vault/search?q=swim*&limit=1');
    expect(r.status).toBe(200);
    expect(r.body.hits).toHaveLength(1);
    const first = r.body.hits[0];
    for (const bad of ['**', '[', '\u0002', '\u0003', '<mark>']) expect(first.snippet.text).not.toContain(bad);
    expect(first.snippet.matches.length).toBeGreaterThan(0);
    for (const m of first.snippet.matches) expect(at(first.snippet.text, m).toLowerCase()).toMatch(/^swim/);
    expect(r.body.next_offset).toBe(1);
    const second = await owner.api<VaultSearchReply>('GET', '/api/vault/search?q=swim*&limit=1&offset=1');
    expect(second.body.hits).toHaveLength(1);
    expect(second.body.hits[0].path).not.toBe(first.path);
    expect(second.body.next_offset).toBeNull();
    // Hidden folders are never searched.
    expect([first.path, second.body.hits[0].path].sort()).toEqual(['family/swim.md', 'people/Priya Nair.md']);
    const titled = await owner.api<VaultSearchReply>('GET', '/api/vault/search?q=schedule');
    expect(titled.body.hits[0].title_matches.map((m) => at(titled.body.hits[0].title, m))).toEqual(['schedule']);
    const bad = await owner.api<{ code: string; message: string }>('GET', '/api/vault/search?q=%20');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_argument');
  });

  it('a note comes with its frontmatter, its wikilinks resolved (path, file name, alias) and its backlinks', async () => {
    const r = await owner.api<VaultNoteView>('GET', `/api/vault/note?path=${encodeURIComponent('projects/atlas.md')}`);
    expect(r.status).toBe(200);
    expect(r.body.title).toBe('Atlas');
    expect(r.body.frontmatter).toMatchObject({ status: 'active', aliases: ['Project Atlas'] });
    expect(r.body.content.startsWith('# Atlas')).toBe(true);
    expect(r.body.links).toEqual([
      { target: 'Priya Nair', path: 'people/Priya Nair.md' },
      { target: 'people/sam', path: 'people/sam.md' },
      { target: 'Missing Note', path: null },
    ]);
    // Priya links by file name, Sam by the alias "Project Atlas"; the hidden note is no backlink.
    expect(r.body.backlinks.map((b) => b.path)).toEqual(['people/Priya Nair.md', 'people/sam.md']);
    expect(r.body.obsidian_url).toBe(`obsidian://open?vault=${encodeURIComponent(path.basename(owner.vaultDir))}&file=${encodeURIComponent('projects/atlas')}`);
    const hidden = await owner.api<{ code: string }>('GET', `/api/vault/note?path=${encodeURIComponent('.obsidian/secret.md')}`);
    expect(hidden.status).toBe(400);
    expect(hidden.body.code).toBe('path_hidden');
    const missing = await owner.api<{ code: string }>('GET', `/api/vault/note?path=nope.md`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('note_not_found');
  });

  it('folders list their notes a page at a time; the tree counts notes per folder', async () => {
    const tree = await owner.api<VaultTreeReply>('GET', '/api/vault/tree');
    expect(tree.body.folders).toEqual([
      { path: 'family', notes: 1 },
      { path: 'people', notes: 2 },
      { path: 'projects', notes: 1 },
    ]);
    expect(tree.body.total_notes).toBe(4);
    const p1 = await owner.api<VaultNotesReply>('GET', '/api/vault/notes?folder=people&limit=1');
    expect(p1.body.notes.map((n) => n.path)).toEqual(['people/Priya Nair.md']);
    expect(p1.body.total).toBe(2);
    const p2 = await owner.api<VaultNotesReply>('GET', `/api/vault/notes?folder=people&limit=1&cursor=${encodeURIComponent(p1.body.next_cursor!)}`);
    expect(p2.body.notes.map((n) => n.path)).toEqual(['people/sam.md']);
    expect(p2.body.next_cursor).toBeNull();
    const bad = await owner.api<{ code: string }>('GET', '/api/vault/notes?cursor=garbage');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_argument');
  });

  it('reveal runs the file manager as an argv array (MAILROOM_REVEAL_COMMAND here) and refuses hidden paths', async () => {
    const dir = tempDir('mailroom-reveal-');
    const log = path.join(dir, 'argv.txt');
    const script = path.join(dir, 'reveal.sh');
    fs.writeFileSync(script, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${log}.tmp" && mv "${log}.tmp" "${log}"\n`, { mode: 0o755 });
    process.env.MAILROOM_REVEAL_COMMAND = script;
    try {
      const hidden = await owner.api<{ code: string }>('POST', '/api/vault/reveal', { path: '.obsidian/secret.md' });
      expect(hidden.status).toBe(400);
      expect(hidden.body.code).toBe('path_hidden');
      const outside = await owner.api<{ code: string }>('POST', '/api/vault/reveal', { path: '../etc/passwd' });
      expect(outside.body.code).toBe('path_outside_vault');
      expect(fs.existsSync(log)).toBe(false);
      const r = await owner.api<{ ok: boolean; command: string[] }>('POST', '/api/vault/reveal', { path: 'people/Priya Nair.md' });
      expect(r.status).toBe(200);
      const argv = await waitFor(() => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''), (x) => x.length > 0, 10_000, 'reveal script ran');
      // One argument, spaces and all: no shell split it.
      expect(argv).toBe(path.join(fs.realpathSync(owner.vaultDir), 'people', 'Priya Nair.md') + '\n');
    } finally {
      delete process.env.MAILROOM_REVEAL_COMMAND;
    }
  });
});

describe('vault notes as MCP resources', () => {
  let owner: TestOwner;
  let client: Client;
  beforeAll(async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 130; i++) many[`bulk/note-${String(i).padStart(3, '0')}.md`] = `# Bulk ${i}\nbody ${i}\n`;
    owner = await startTestOwner({ vaultFiles: { ...VAULT, ...many } });
    const outside = tempDir('mailroom-outside-');
    fs.writeFileSync(path.join(outside, 'leak.md'), 'outside secret');
    fs.symlinkSync(path.join(outside, 'leak.md'), path.join(owner.vaultDir, 'projects', 'leak.md'));
    client = await owner.mcp();
  });
  afterAll(async () => owner?.close());

  it('resources/templates/list offers vault://note/{+path} as text/markdown', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toContainEqual(expect.objectContaining({ uriTemplate: 'vault://note/{+path}', mimeType: 'text/markdown' }));
  });

  it('resources/list pages through every visible note with a cursor', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await client.listResources(cursor ? { cursor } : {});
      uris.push(...r.resources.filter((x) => x.uri.startsWith('vault://')).map((x) => x.uri));
      cursor = r.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    expect(new Set(uris).size).toBe(uris.length);
    expect(uris).toHaveLength(134);
    expect(uris).toContain('vault://note/people/Priya%20Nair.md');
    expect(uris.some((u) => u.includes('obsidian') || u.includes('leak'))).toBe(false);
    await expect(client.listResources({ cursor: 'not-a-cursor' })).rejects.toThrow(/cursor/i);
  });

  it('resources/read returns a note as text/markdown; hidden, outside and .. paths are refused', async () => {
    const r = await client.readResource({ uri: 'vault://note/people/Priya%20Nair.md' });
    expect(r.contents[0]).toMatchObject({ uri: 'vault://note/people/Priya%20Nair.md', mimeType: 'text/markdown' });
    expect((r.contents[0] as { text: string }).text).toBe(VAULT['people/Priya Nair.md']);
    const refused = async (uri: string) => {
      const e = await client.readResource({ uri }).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e, uri).toBeInstanceOf(McpError);
      return (e as McpError & { data?: { code?: string } }).data?.code;
    };
    expect(await refused('vault://note/.obsidian/secret.md')).toBe('path_hidden');
    expect(await refused('vault://note/projects/leak.md')).toBe('path_outside_vault');
    expect(await refused('vault://note/..%2F..%2Fetc%2Fpasswd.md')).toBe('path_outside_vault');
    expect(await refused('vault://note/nope.md')).toBe('not_found');
  });
});

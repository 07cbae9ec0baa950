import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseYaml } from '../../../electron/core/domains/vault';
import { callTool, callToolError, startTestOwner, tempDir, waitForHubEvent, type TestOwner } from '../../helpers/owner';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

function frontmatter(file: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(fs.readFileSync(file, 'utf8'));
  return m ? (parseYaml(m[1] ?? '') as Record<string, unknown>) : {};
}

describe('saving to the inbox', () => {
  let owner: TestOwner;
  let client: Client;
  beforeAll(async () => {
    owner = await startTestOwner({ vaultFiles: { 'family/activities/swim/schedule.md': '# Swim\n' } });
    client = await owner.mcp();
  });
  afterAll(async () => owner?.close());

  it('brain_inbox_save writes inbox/<date>-<slug>.md with the hints in frontmatter, and the hub hears it', async () => {
    const hub = await owner.hub();
    const heard = waitForHubEvent(hub, 'InboxChanged');
    const r = await callTool<{ path: string; filed: boolean; title: string }>(client, 'brain_inbox_save', {
      content: "Owen's swim meet moved to Sunday 9:00.",
      title: "Owen's swim meet",
      processing_hints: { category: 'family/activities/swim', tags: ['swim'], source: 'claude' },
    });
    expect(r.filed).toBe(false);
    expect(r.path).toMatch(/^inbox\/\d{4}-\d{2}-\d{2}-owens-swim-meet\.md$/);
    const file = path.join(owner.vaultDir, r.path);
    expect(fs.readFileSync(file, 'utf8')).toContain("Owen's swim meet moved to Sunday 9:00.");
    const fm = frontmatter(file);
    expect(fm).toMatchObject({ title: "Owen's swim meet", source: 'claude', tags: ['swim'], processing_hints: { category: 'family/activities/swim' } });
    const [reason, count] = await heard;
    expect(reason).toBe('saved');
    expect(count).toBeGreaterThanOrEqual(1);
  });

  it('never overwrites: the same title twice gets a suffix', async () => {
    const a = await callTool<{ path: string }>(client, 'brain_inbox_save', { content: 'first', title: 'Same title' });
    const b = await callTool<{ path: string }>(client, 'brain_inbox_save', { content: 'second', title: 'Same title' });
    expect(b.path).not.toBe(a.path);
    expect(b.path).toMatch(/-2\.md$/);
    expect(fs.readFileSync(path.join(owner.vaultDir, a.path), 'utf8')).toContain('first');
  });

  it('with skip_inbox and a category it files directly into that folder', async () => {
    const r = await callTool<{ path: string; filed: boolean }>(client, 'brain_inbox_save', {
      content: 'Bring the team cap.',
      title: 'Swim cap reminder',
      processing_hints: { category: 'family/activities/swim', skip_inbox: true },
    });
    expect(r).toMatchObject({ filed: true, path: 'family/activities/swim/swim-cap-reminder.md' });
    expect(fs.existsSync(path.join(owner.vaultDir, r.path))).toBe(true);
  });

  it('rejects categories that escape the vault, with path_outside_vault and nothing written', async () => {
    const outside = tempDir();
    fs.symlinkSync(outside, path.join(owner.vaultDir, 'escape'));
    for (const category of ['../elsewhere', '/etc', 'a/\0b', 'escape']) {
      const err = await callToolError(client, 'brain_inbox_save', { content: 'x', title: 'x', processing_hints: { category, skip_inbox: true } });
      expect(err.code, category).toBe('path_outside_vault');
    }
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('rejects empty content and unknown fields with invalid_argument', async () => {
    expect((await callToolError(client, 'brain_inbox_save', { content: '' })).code).toBe('invalid_argument');
    expect((await callToolError(client, 'brain_inbox_save', { content: 'x', colour: 'red' })).code).toBe('invalid_argument');
    expect((await callToolError(client, 'brain_inbox_save', { content: 'x', processing_hints: { skip_inbox: true } })).message).toMatch(/category/);
  });

  it('the capture endpoint (tray box, drag-and-drop) uses the same path and lists the inbox', async () => {
    const r = await owner.api<{ path: string }>('POST', '/api/inbox/capture', { content: 'Dropped text', source: 'capture' });
    expect(r.status).toBe(200);
    expect(r.body.path).toMatch(/^inbox\//);
    const list = await owner.api<{ items: Array<{ path: string; title: string }> }>('GET', '/api/inbox');
    expect(list.body.items.map((i) => i.path)).toContain(r.body.path);
    const bad = await owner.api<{ code: string }>('POST', '/api/inbox/capture', { content: 42 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_argument');
  });
});

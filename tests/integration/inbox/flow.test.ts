import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, callToolError, REPO_ROOT, startTestOwner, tempDir, waitFor, waitForHubEvent, writeFiles, type TestOwner } from '../../helpers/owner';
import { stdioClient } from '../../helpers/cli';

interface Item {
  path: string;
  title: string;
  suggested_action: string;
  destination: string | null;
  confidence: number;
  reasoning: string;
  entities: string[];
  entity_locations: Record<string, string[]>;
  rules_matched: string[];
}
interface Analysis {
  items: Item[];
  rules_loaded: boolean;
  rules_applied: string[];
  rules_unparsed: string[];
  items_skipped: string[];
}
interface Executed {
  results: Array<{ path: string; action: string; status: string; destination?: string; error?: { code: string } }>;
  commit: string | null;
  undo_id: string | null;
}

/** Every file under `root` (outside .git) → sha256. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(root, p)] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(root);
  return out;
}

const gitLog = (dir: string) => execFileSync('git', ['log', '--format=%H %s'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
const byPath = (a: Analysis, p: string) => a.items.find((i) => i.path === p)!;

describe('inbox review over MCP stdio (the way Claude Desktop calls it), on the demo vault', () => {
  let client: Client;
  let close: () => Promise<void>;
  const dataDir = tempDir('mailroom-data-');
  const vault = tempDir('mailroom-vault-');
  beforeAll(async () => {
    fs.cpSync(path.join(REPO_ROOT, 'resources', 'demo-vault'), vault, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ git_init: true }));
    const c = await stdioClient(dataDir, { vault });
    client = c.client;
    close = () => c.client.close();
    // The owner answers at once and indexes the vault in the background: the assertions below are
    // about suggestions on the whole vault, so wait until mailroom_info says the index is ready.
    await waitFor(
      () => callTool<{ index?: { state: string } }>(client, 'mailroom_info', {}),
      (i) => i.index === undefined || i.index.state === 'ready',
      30_000,
      'vault index ready',
    );
  }, 60_000);
  afterAll(async () => close?.());

  it('inbox_analyze suggests where each item goes, with reasons, entities and rules — compactly, and modifies nothing', async () => {
    const before = snapshot(vault);
    const a = await callTool<Analysis>(client, 'inbox_analyze', {});
    expect(snapshot(vault)).toEqual(before);
    expect(a.rules_loaded).toBe(true);
    const recipe = byPath(a, 'inbox/2026-11-22-shakshuka.md');
    expect(recipe).toMatchObject({ suggested_action: 'move', destination: 'home/recipes/shakshuka.md', rules_matched: ['Recipes'] });
    expect(recipe.confidence).toBeGreaterThanOrEqual(0.8);
    const meeting = byPath(a, 'inbox/2026-11-21-planning-meeting.md');
    expect(meeting.destination).toBe('work/meetings/2026-11-21-q1-planning-meeting.md');
    expect(meeting.entities).toContain('Priya Nair'); // "PN" resolved through the rules' alias
    const swim = byPath(a, 'inbox/2026-11-20-swim-meet.md');
    expect(swim.destination).toMatch(/^family\/activities\/swim\//);
    expect(swim.entities).toContain('Owen');
    const thought = byPath(a, 'inbox/2026-11-22-random-thought.md');
    expect(thought.suggested_action).toBe('keep');
    expect(a.items_skipped.some((s) => s.startsWith('inbox/2026-11-22-random-thought.md — '))).toBe(true);
    expect(a.rules_unparsed.some((u) => /Transform/.test(u))).toBe(true);
    const tokensPerItem = JSON.stringify(a).length / 4 / a.items.length;
    expect(tokensPerItem).toBeLessThanOrEqual(150);
  });

  it('inbox_execute files the approved items in one commit, and inbox_undo puts every byte back in another', async () => {
    const before = snapshot(vault);
    const commitsBefore = gitLog(vault).length;
    const a = await callTool<Analysis>(client, 'inbox_analyze', {});
    const moves = a.items.filter((i) => i.suggested_action === 'move');
    const actions = [
      ...moves.map((i) => ({ path: i.path, action: 'move', destination: i.destination! })),
      { path: 'inbox/2026-11-22-random-thought.md', action: 'delete' },
    ];
    const r = await callTool<Executed>(client, 'inbox_execute', { actions });
    expect(r.results.every((x) => x.status === 'done')).toBe(true);
    expect(r.commit).toMatch(/^[0-9a-f]{40}$/);
    for (const m of moves) {
      expect(fs.existsSync(path.join(vault, m.path))).toBe(false);
      expect(snapshot(vault)[m.destination!]).toBe(before[m.path]);
    }
    expect(fs.existsSync(path.join(vault, 'inbox/2026-11-22-random-thought.md'))).toBe(false);
    const trashed = fs.readdirSync(path.join(dataDir, 'trash'), { recursive: true }).map(String);
    expect(trashed.some((f) => f.endsWith('2026-11-22-random-thought.md'))).toBe(true);
    const log = gitLog(vault);
    expect(log.length).toBe(commitsBefore + 1);
    expect(log[0]).toContain(r.commit!);

    const u = await callTool<{ restored: string[]; commit: string | null }>(client, 'inbox_undo', { undo_id: r.undo_id });
    expect(u.restored.sort()).toEqual(actions.map((x) => x.path).sort());
    expect(snapshot(vault)).toEqual(before);
    expect(gitLog(vault).length).toBe(commitsBefore + 2);
    expect((await callToolError(client, 'inbox_undo', { undo_id: r.undo_id })).code).toBe('conflict');
    expect((await callToolError(client, 'inbox_undo', { undo_id: 'b_nope' })).code).toBe('undo_not_found');
  });
});

describe('inbox execution details', () => {
  let owner: TestOwner;
  let client: Client;
  beforeAll(async () => {
    owner = await startTestOwner({
      vaultFiles: {
        'projects/atlas.md': '# Atlas\n\nThe Atlas launch is planned for March with Priya and Sam.\n',
        'projects/atlas-notes.md': '# Atlas notes\n\nOld notes.\n',
        'inbox/atlas-update.md': '# Atlas update\n\nThe Atlas launch is planned for March with Priya and Sam. Sam adds: marketing needs two more weeks.\n',
        'inbox/one.md': '# Atlas notes\n\nfirst\n',
        'inbox/two.md': '# Atlas notes\n\nsecond\n',
        'inbox/zebra.md': '# Zebra sighting\n\nSaw a zebra at the zoo.\n',
      },
    });
    client = await owner.mcp();
  });
  afterAll(async () => owner?.close());

  it('suggests merging a near-duplicate into the note it repeats; merge appends under a dated heading and undo restores the note', async () => {
    const a = await callTool<Analysis>(client, 'inbox_analyze', { paths: ['inbox/atlas-update.md'] });
    expect(a.items[0]).toMatchObject({ suggested_action: 'merge', destination: 'projects/atlas.md' });
    const target = path.join(owner.vaultDir, 'projects/atlas.md');
    const original = fs.readFileSync(target);
    const r = await callTool<Executed>(client, 'inbox_execute', { actions: [{ path: 'inbox/atlas-update.md', action: 'merge', destination: 'projects/atlas.md' }] });
    const merged = fs.readFileSync(target, 'utf8');
    expect(merged.startsWith(original.toString())).toBe(true);
    expect(merged).toMatch(/\n## \d{4}-\d{2}-\d{2} — Atlas update\n\nThe Atlas launch is planned.*marketing needs two more weeks\.\n$/s);
    expect(fs.existsSync(path.join(owner.vaultDir, 'inbox/atlas-update.md'))).toBe(false);
    await callTool(client, 'inbox_undo', { undo_id: r.undo_id });
    expect(fs.readFileSync(target).equals(original)).toBe(true);
    expect(fs.existsSync(path.join(owner.vaultDir, 'inbox/atlas-update.md'))).toBe(true);
  });

  it('never overwrites: two items moved onto the same name, or onto an existing note, get suffixes', async () => {
    const r = await callTool<Executed>(client, 'inbox_execute', {
      actions: [
        { path: 'inbox/one.md', action: 'move', destination: 'projects/atlas-notes.md' },
        { path: 'inbox/two.md', action: 'move', destination: 'projects/atlas-notes.md' },
      ],
    });
    expect(r.results.map((x) => x.destination)).toEqual(['projects/atlas-notes-2.md', 'projects/atlas-notes-3.md']);
    expect(fs.readFileSync(path.join(owner.vaultDir, 'projects/atlas-notes.md'), 'utf8')).toContain('Old notes.');
    expect(fs.readFileSync(path.join(owner.vaultDir, 'projects/atlas-notes-3.md'), 'utf8')).toContain('second');
    await callTool(client, 'inbox_undo', { undo_id: r.undo_id });
  });

  it('rejects paths outside the vault with path_outside_vault and touches nothing; dry_run plans only', async () => {
    const before = snapshot(owner.vaultDir);
    fs.symlinkSync(tempDir(), path.join(owner.vaultDir, 'escape'));
    for (const [p, d] of [['../x.md', 'a'], ['/etc/passwd', 'a'], ['inbox/zebra.md', '../../out'], ['inbox/zebra.md', 'escape/z.md'], ['inbox/\0.md', 'a']]) {
      const e = await callToolError(client, 'inbox_execute', { actions: [{ path: 'inbox/one.md', action: 'move', destination: 'projects' }, { path: p, action: 'move', destination: d }] });
      expect(e.code, `${p} → ${d}`).toBe('path_outside_vault');
    }
    const dry = await callTool<Executed>(client, 'inbox_execute', { actions: [{ path: 'inbox/zebra.md', action: 'move', destination: 'animals/' }], dry_run: true });
    expect(dry.results[0]).toMatchObject({ status: 'planned', destination: 'animals/zebra.md' });
    expect(dry.undo_id).toBeNull();
    fs.rmSync(path.join(owner.vaultDir, 'escape'));
    expect(snapshot(owner.vaultDir)).toEqual(before);
    const missing = await callTool<Executed>(client, 'inbox_execute', { actions: [{ path: 'inbox/gone.md', action: 'delete' }] });
    expect(missing.results[0]).toMatchObject({ status: 'error', error: { code: 'note_not_found' } });
  });

  it('re-reads the rules file when it changes', async () => {
    const before = await callTool<Analysis>(client, 'inbox_analyze', { paths: ['inbox/zebra.md'] });
    expect(before.rules_loaded).toBe(false);
    writeFiles(owner.vaultDir, { '_brain_config/inbox_rules.md': '# Rules\n- anything about zebras → animals/africa/\n' });
    const after = await waitFor(
      () => callTool<Analysis>(client, 'inbox_analyze', { paths: ['inbox/zebra.md'] }),
      (x) => x.rules_loaded,
      5000,
      'rules picked up',
    );
    expect(after.items[0]).toMatchObject({ suggested_action: 'move', destination: 'animals/africa/zebra-sighting.md', rules_matched: ['anything about zebras → animals/africa/'] });
  });

  it('announces new items: hub InboxChanged after analysis, a "ready to file" notification and the badge count', async () => {
    const hub = await owner.hub();
    const note = waitForHubEvent(hub, 'Notification', (n) => /new item.* ready to file/.test((n as { body: string }).body));
    const analyzed = waitForHubEvent(hub, 'InboxChanged', (reason) => reason === 'analyzed');
    await callTool(client, 'brain_inbox_save', { content: 'Owen needs new goggles', title: 'Goggles' });
    const [n] = await note;
    expect((n as { body: string }).body).toBe('1 new item ready to file');
    await analyzed;
    // The badge counts what the inbox holds once the new item is analysed (an earlier analysis's
    // event may carry an older count, so compare with the list rather than with the event).
    const list = await owner.api<{ items: Item[] }>('GET', '/api/inbox');
    expect(list.body.items.some((i) => i.title === 'Goggles')).toBe(true);
    const badges = await owner.api<Record<string, number>>('GET', '/api/badges');
    expect(badges.body.inbox).toBe(list.body.items.length);
  });
});

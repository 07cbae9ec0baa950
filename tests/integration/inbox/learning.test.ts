import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, startTestOwner, tempDir, type TestOwner } from '../../helpers/owner';

/** A potter's vault with a rules file that already has a loose-rules section. */
const VAULT: Record<string, string> = {
  '_brain_config/inbox_rules.md': '# Inbox Processing Rules\n\n## Default Behavior\n- Confidence threshold: 0.7\n\n## Loose rules\n- anything about beans → garden/\n',
  'studio/ceramics/glazes.md': '# Glazes\n\nCeladon glaze over porcelain; dip for three seconds. Tenmoku breaks brown on the rims of bowls.\n',
  'studio/ceramics/throwing.md': '# Throwing\n\nCentre the clay on the wheel, open, pull the walls in three passes. Trim bowls when leather hard.\n',
  'studio/ceramics/mugs.md': '# Mugs\n\nPull handles from the mug body; let the mugs dry slowly under plastic before the bisque.\n',
  'studio/markets/craft-fair.md': '# Craft fair\n\nStall fee forty euros; bring the card reader, price tags and the folding table.\n',
  'garden/beans.md': '# Beans\n\nRunner beans on the hazel poles; water in the evening.\n',
  'logbook/week-12.md': '# Week 12\n\nSlow week. Invoices sent, studio swept, new shelves ordered.\n',
  'inbox/bisque.md': '# Bisque firing\n\nBisque firing on Tuesday: the kiln reached cone 04 in nine hours, slow cooling overnight, two mugs cracked.\n',
  'inbox/glaze-firing.md': '# Glaze firing\n\nGlaze firing on Friday: the kiln hit cone 6 in eleven hours; one bowl crawled.\n',
  'inbox/tiles.md': '# Test tiles\n\nFired the test tiles: kiln at cone 6 after ten hours, cooling took a day, tiles pinholed.\n',
};

interface Listed {
  items: Array<{ path: string; suggested_action: string; destination: string | null; confidence: number; reasoning: string; rules_matched: string[] }>;
  rule_suggestions: Array<{ id: number; line: string; folder: string }>;
  needs_review: string[];
}
interface ExportRow {
  path: string;
  label: string;
  edited: boolean;
  origin: string;
  suggested_destination: string | null;
}

const jsonl = async (o: TestOwner) => {
  const r = await fetch(o.url + '/api/inbox/examples.jsonl', { headers: { authorization: `Bearer ${o.token}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/ndjson/);
  const text = await r.text();
  return text ? text.trim().split('\n').map((l) => JSON.parse(l) as ExportRow) : [];
};

describe('learning from review, through the owner (REST, MCP, restart)', () => {
  const dataDir = tempDir('mailroom-data-');
  const vaultDir = tempDir('mailroom-vault-');
  fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ git_init: true }));
  let owner: TestOwner | undefined;
  afterAll(async () => owner?.close());

  it('edits become examples and a suggested rule; accepting it writes the rules file (committed) and applies it; undo withdraws; examples survive a restart', async () => {
    owner = await startTestOwner({ dataDir, vaultDir, vaultFiles: VAULT });
    const first = (await owner.api<Listed>('GET', '/api/inbox')).body;
    expect(first.items).toHaveLength(3);
    // None is suggested for the logbook yet (the firings look like studio work; the tiles share no words with the vault: keep).
    expect(first.items.filter((i) => i.suggested_action === 'move').length).toBeGreaterThanOrEqual(2);
    for (const i of first.items) expect(i.destination ?? '').not.toMatch(/^logbook\//);
    expect(first.rule_suggestions).toEqual([]);

    // The person files all three firings in the logbook, against the suggestions (the Inbox page calls this route).
    const ex = await owner.api<{ undo_id: string; results: Array<{ status: string }> }>('POST', '/api/inbox/execute', {
      actions: first.items.map((i) => ({ path: i.path, action: 'move', destination: 'logbook/' })),
    });
    expect(ex.status).toBe(200);
    expect(ex.body.results.every((r) => r.status === 'done')).toBe(true);
    const rows = await jsonl(owner);
    expect(rows.map((r) => r.path).sort()).toEqual(first.items.map((i) => i.path).sort());
    expect(rows.every((r) => r.label === 'logbook' && r.edited && r.origin === 'review')).toBe(true);

    // Three edits toward one folder sharing a word → a suggested rule in the loose-bullet style.
    const listed = (await owner.api<Listed>('GET', '/api/inbox')).body;
    expect(listed.rule_suggestions).toHaveLength(1);
    const sug = listed.rule_suggestions[0];
    expect(sug.line).toMatch(/^- anything about (kiln|firing|cone) → logbook\/$/);
    const commits = () => execFileSync('git', ['log', '--format=%s'], { cwd: owner!.vaultDir, encoding: 'utf8' }).trim().split('\n');
    const before = commits().length;
    const acc = await owner.api<{ line: string; commit?: string }>('POST', `/api/inbox/rules/suggestions/${sug.id}/accept`);
    expect(acc.status).toBe(200);
    const rulesText = fs.readFileSync(path.join(owner.vaultDir, '_brain_config/inbox_rules.md'), 'utf8');
    expect(rulesText).toBe(`${VAULT['_brain_config/inbox_rules.md']}${sug.line}\n`);
    expect(commits().length).toBe(before + 1);
    expect((await owner.api<Listed>('GET', '/api/inbox')).body.rule_suggestions).toEqual([]);
    expect((await owner.api<{ code: string }>('POST', `/api/inbox/rules/suggestions/${sug.id}/accept`)).body.code).toBe('conflict');
    expect((await owner.api<{ code: string }>('POST', '/api/inbox/rules/suggestions/abc/dismiss')).body.code).toBe('invalid_argument');

    // The next item is placed by the new rule, and by the earlier decisions.
    const client = await owner.mcp();
    const saved = await callTool<{ path: string }>(client, 'brain_inbox_save', { title: 'Second bisque', content: 'Another bisque firing: kiln reached cone 04 in eight hours, cooling overnight.' });
    const a = await callTool<Listed>(client, 'inbox_analyze', {});
    const item = a.items.find((i) => i.path === saved.path)!;
    expect(item.rules_matched).toContain(sug.line.slice(2));
    expect(item.destination).toMatch(/^logbook\//);
    expect(item.reasoning).toMatch(/like \d earlier items? you filed in logbook/);
    // Accepting over MCP is an example too.
    await callTool(client, 'inbox_execute', { actions: [{ path: item.path, action: 'move', destination: item.destination }] });
    const after = await jsonl(owner);
    expect(after).toHaveLength(4);
    expect(after[3]).toMatchObject({ path: saved.path, label: 'logbook', edited: false, origin: 'mcp' });

    // Undo of the first batch withdraws its three examples.
    expect((await owner.api('POST', '/api/inbox/undo', { undo_id: ex.body.undo_id })).status).toBe(200);
    expect((await jsonl(owner)).map((r) => r.path)).toEqual([saved.path]);

    // A restart on the same data dir: the example is still there (state.db), and the CLI route too.
    await owner.close();
    owner = await startTestOwner({ dataDir, vaultDir });
    expect((await jsonl(owner)).map((r) => r.path)).toEqual([saved.path]);
    const json = await owner.api<{ count: number }>('GET', '/api/inbox/examples');
    expect(json.body.count).toBe(1);
  }, 60_000);
});

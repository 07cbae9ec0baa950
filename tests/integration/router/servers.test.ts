import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/owner';
import { FS_SERVER, MEMORY_SERVER, NODE, makeRouter, type Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const vaultNote = `---
tags: [people, swim]
intent: person
source: note
---
# Owen Park

Owen swims on Tuesdays at the Lakeside pool.
Coach: Dana.
`;

describe('routing to real MCP servers from npm', () => {
  it('@modelcontextprotocol/server-memory: a vault note becomes an entity through schema-aware defaults, and reads back', async () => {
    h = makeRouter({ vaultFiles: { 'inbox/owen.md': vaultNote } });
    const s = h.router.service;
    const memoryFile = path.join(h.dataDir, 'memory.jsonl');
    const a = s.createAdapter({ name: 'Memory', command: NODE, args: [MEMORY_SERVER], env: [{ key: 'MEMORY_FILE_PATH', value: memoryFile }] });

    const test = await s.testAdapter(a.id);
    expect(test.ok).toBe(true);
    expect(test.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_entities', 'read_graph', 'search_nodes']));

    // No mapping at all: the tool's schema decides (entities[].name ← title, entityType ← intent, observations ← content).
    const route = await s.createRoute({ name: 'People → memory', adapter_id: a.id, tool: 'create_entities', condition: { field: 'tags', op: 'equals', value: 'people' } });
    expect(route.tool_schema_hash).toMatch(/^[0-9a-f]{16}$/);
    const r = await h.router.routeItem({ path: 'inbox/owen.md' });
    expect(r.status).toBe('ok');
    expect(r.mapper).toBe('schema-defaults');
    expect(r.args).toEqual({ entities: [{ name: 'Owen Park', entityType: 'person', observations: [expect.stringContaining('Owen swims on Tuesdays')] }] });

    const found = await s.pool.withClient(a.id, (c) => c.callTool({ name: 'search_nodes', arguments: { query: 'Owen' } }));
    const graph = (found.structuredContent ?? JSON.parse((found.content as Array<{ text: string }>)[0]?.text ?? '')) as { entities: Array<{ name: string; entityType: string; observations: string[] }> };
    expect(graph.entities).toEqual([expect.objectContaining({ name: 'Owen Park', entityType: 'person' })]);
    expect(graph.entities[0]?.observations[0]).toContain('Lakeside pool');
    expect(fs.readFileSync(memoryFile, 'utf8')).toContain('Owen Park');
  });

  it('@modelcontextprotocol/server-filesystem: a template writes the item as a file inside the allowed folder, read back through the server', async () => {
    h = makeRouter();
    const s = h.router.service;
    const outDir = fs.realpathSync(tempDir('mailroom-router-fs-'));
    const a = s.createAdapter({ name: 'Files', command: NODE, args: [FS_SERVER, outDir] });
    await s.createRoute({
      name: 'Recipes → files',
      adapter_id: a.id,
      tool: 'write_file',
      condition: { any: [{ field: 'folder', op: 'starts_with', value: 'home/recipes' }, { field: 'title', op: 'matches', value: '\\brecipe\\b' }] },
      mapping: { path: `${outDir}/{{ title | slug }}.md`, content: '# {{ title }}\n\nTags: {{ tags | join(", ") }}\n\n{{ content }}\n' },
    });
    const r = await h.router.routeItem({ title: 'Pasta carbonara recipe', content: 'Eggs, pecorino, guanciale.', tags: ['cooking', 'italian'], entities: [] });
    expect(r.status).toBe('ok');
    const file = path.join(outDir, 'pasta-carbonara-recipe.md');
    expect(r.args).toEqual({ path: file, content: '# Pasta carbonara recipe\n\nTags: cooking, italian\n\nEggs, pecorino, guanciale.\n' });

    const back = await s.pool.withClient(a.id, (c) => c.callTool({ name: 'read_text_file', arguments: { path: file } }));
    expect(JSON.stringify(back.content)).toContain('Eggs, pecorino, guanciale.');
    // A path outside the allowed folder is refused by the server itself (non-retryable, logged).
    await s.createRoute({ name: 'escape', priority: 99, adapter_id: a.id, tool: 'write_file', condition: { field: 'title', op: 'equals', value: 'escape' }, mapping: { path: '/etc/mailroom-escape.md', content: 'x' } });
    const bad = await h.router.routeItem({ title: 'escape', content: '', tags: [], entities: [] });
    expect(bad.status).toBe('failed');
    expect(bad.attempts).toHaveLength(1);
    expect(bad.error?.message).toMatch(/denied|outside|not allowed/i);
  });

  it('detects tool schema drift: a route saved against one schema shows drift when the server changes it', async () => {
    h = makeRouter();
    const s = h.router.service;
    const toolsFile = path.join(h.dataDir, 'tools.json');
    const { TEST_SERVER } = await import('./harness');
    const a = s.createAdapter({ name: 'Drifting', command: NODE, args: [TEST_SERVER], env: [{ key: 'MCP_TEST_TOOLS_FILE', value: toolsFile }] });
    const route = await s.createRoute({ name: 'notes', adapter_id: a.id, tool: 'create_note', mapping: { title: '{{ title }}', content: '{{ content }}' } });
    expect((await s.checkRoute(route.id)).schema_drift).toBe(false);

    fs.writeFileSync(toolsFile, JSON.stringify([{ name: 'create_note', inputSchema: { type: 'object', properties: { title: { type: 'string' }, body: { type: 'string' }, project_id: { type: 'string' } }, required: ['title', 'body', 'project_id'], additionalProperties: false } }]));
    const drifted = await s.checkRoute(route.id);
    expect(drifted.schema_drift).toBe(true);
    expect(s.listRoutes()[0]?.schema_drift).toBe(true);
    // The preview shows what the new schema rejects; saving the route accepts the new schema.
    const p = await s.preview(route.id, { item: { title: 'T', content: 'C' } });
    expect([...p.validation.errors].sort()).toEqual(['(root): missing required property "project_id"', '(root): unexpected property "content"']);
    // `body` was filled from the content by the schema-aware defaults; project_id cannot be guessed.
    expect(p.args).toEqual({ title: 'T', content: 'C', body: 'C' });
    const saved = await s.updateRoute(route.id, { name: 'notes', adapter_id: a.id, tool: 'create_note', mapping: { title: '{{ title }}', body: '{{ content }}', project_id: 'P-7' } });
    expect(saved.schema_drift).toBe(false);
  });
});

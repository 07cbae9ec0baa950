import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callToolError, startTestOwner, type TestOwner } from '../../helpers/owner';

let owner: TestOwner;
let client: Client;

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown> };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
const ok = async (name: string, args: Record<string, unknown>) => {
  const r = await call(name, args);
  expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  return r.structuredContent as Record<string, unknown>;
};

beforeAll(async () => {
  owner = await startTestOwner();
  client = await owner.mcp();
});
afterAll(() => owner?.close());

describe('memory over MCP', () => {
  it('lists analyze_message, save_memory and search_memory with schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['analyze_message', 'save_memory', 'search_memory']));
    expect(tools.find((t) => t.name === 'analyze_message')?.outputSchema).toBeTruthy();
  });

  it('analyze_message says MUST_SAVE for an explicit request and returns spans', async () => {
    const r = await ok('analyze_message', { message: 'Remember that Dr. Amara Singh from Acme Corp prefers postgres' });
    expect(r.action_recommendation).toBe('MUST_SAVE');
    expect(r.should_save).toBe(true);
    const ents = r.entities as Array<{ text: string; type: string }>;
    expect(ents).toEqual(expect.arrayContaining([expect.objectContaining({ text: 'Amara Singh', type: 'PERSON' })]));
    expect(r.suggested_entities).toEqual(expect.arrayContaining(['Amara Singh', 'postgres']));
  });

  it('rejects a message over 10,000 characters with too_large', async () => {
    // The same client that listed the tools (and so validates output schemas) gets the error shape.
    const err = await callToolError(client, 'analyze_message', { message: 'x '.repeat(6000) });
    expect(err.code).toBe('too_large');
  });

  it('save → search → duplicate save merges instead of writing twice', async () => {
    const first = await ok('save_memory', { content: 'I prefer TypeScript over JavaScript for new projects', source: 'test' });
    expect(first.status).toBe('created');
    const mem = first.memory as { id: string; path: string; entities: string[]; tags: string[]; strength: number };
    expect(mem.path).toMatch(/^memory\/.+\.md$/);
    expect(mem.entities).toEqual(expect.arrayContaining(['TypeScript', 'JavaScript']));
    expect(mem.tags).toContain('preference');
    expect(first.enriched).toEqual({ entities: true, tags: true, strength: true });

    const file = fs.readFileSync(path.join(owner.vaultDir, mem.path), 'utf8');
    expect(file).toMatch(/^---\n/);
    expect(file).toMatch(/entities:/);
    expect(file).toMatch(/strength: /);
    expect(file).toMatch(/created: /);
    expect(file).toContain('I prefer TypeScript over JavaScript for new projects');

    await ok('save_memory', { content: 'My dentist is Dr. Patel, appointments on Tuesdays' });
    const found = await ok('search_memory', { query: 'which language do I prefer, typescript?' });
    const results = found.results as Array<{ id: string; score: number }>;
    expect(results[0].id).toBe(mem.id);
    expect(results[0].score).toBeGreaterThan(0);

    const again = await ok('save_memory', { content: 'i prefer typescript over javascript for new projects!', tags: ['languages'] });
    expect(again.status).toBe('merged');
    expect(again.duplicate_of).toBe(mem.id);
    const merged = again.memory as { tags: string[]; reinforced: number };
    expect(merged.tags).toEqual(expect.arrayContaining(['preference', 'languages']));
    expect(merged.reinforced).toBe(1);
    const files = fs.readdirSync(path.join(owner.vaultDir, 'memory'));
    expect(files).toHaveLength(2);

    const forced = await ok('save_memory', { content: 'I prefer TypeScript over JavaScript for new projects', on_duplicate: 'create' });
    expect(forced.status).toBe('created_despite_duplicate');
  });

  it('filters search by entity and tag', async () => {
    await ok('save_memory', { content: 'We decided to host the API on Hetzner in Falkenstein', entities: ['Hetzner'], tags: ['infra'] });
    const r = await ok('search_memory', { query: '', tags: ['infra'] });
    expect((r.results as Array<{ entities: string[] }>).every((m) => m.entities.includes('Hetzner'))).toBe(true);
    const none = await ok('search_memory', { query: 'hetzner', tags: ['no-such-tag'] });
    expect(none.total).toBe(0);
  });

  it('analyze_message points at a stored duplicate', async () => {
    const r = await ok('analyze_message', { message: 'I prefer TypeScript over JavaScript for new projects' });
    expect((r.duplicate_of as { similarity: number } | undefined)?.similarity).toBeGreaterThan(0.85);
  });

  it('serves the model cards and a try-it analysis over REST', async () => {
    const models = await owner.api<{ backend: string; models: Array<{ card: { name: string; metrics: object } }> }>('GET', '/api/models');
    expect(models.status).toBe(200);
    expect(models.body.backend).toBe('onnx');
    expect(models.body.models.map((m) => m.card.name)).toEqual(['intent', 'ner']);
    const a = await owner.api<{ intent: string; entities: unknown[] }>('POST', '/api/nlp/analyze', { message: 'We are going with Svelte for the dashboard' });
    expect(a.status).toBe(200);
    expect(a.body.intent).toBe('SAVE_DECISION');
    const bad = await owner.api<{ code: string }>('POST', '/api/nlp/analyze', { message: 'y'.repeat(10_001) });
    expect(bad.status).toBe(413);
    expect(bad.body.code).toBe('too_large');
  });
});

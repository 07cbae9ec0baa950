import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { renderTemplate, schemaDefaults, templateMap } from '../../../electron/core/domains/router/mapping/template';
import { llmMap, openAiLlm, type LlmClient } from '../../../electron/core/domains/router/mapping/llm';
import { SchemaValidator } from '../../../electron/core/domains/router/mapping/validate';
import type { RoutableItem } from '../../../electron/core/domains/router/types';

const NOW = Date.parse('2026-01-20T09:30:00Z');
const item: RoutableItem = {
  title: '周报',
  content: '完成周报',
  intent: 'todo',
  entities: ['Dana'],
  tags: ['工作', '重要'],
  date: '2026-01-22',
  source: 'note',
  frontmatter: { project: 'ops' },
};

const notionSchema = {
  type: 'object',
  properties: {
    parent: { type: 'object', properties: { database_id: { type: 'string' } }, required: ['database_id'] },
    properties: { type: 'object' },
  },
  required: ['parent', 'properties'],
};

describe('deterministic mapping (template language)', () => {
  it('produces the seed\'s Notion example: title, date, tags as multi-select, nested objects', () => {
    const template = {
      parent: { database_id: 'xxx' },
      properties: {
        Name: { title: [{ text: { content: '{{ title }}' } }] },
        Date: { $if: 'date', $then: { date: { start: '{{ date | date }}' } } },
        Tags: { multi_select: { $each: 'tags', $as: { name: '{{ item }}' } } },
      },
    };
    const args = templateMap(template, notionSchema, item, NOW);
    expect(args).toEqual({
      parent: { database_id: 'xxx' },
      properties: {
        Name: { title: [{ text: { content: '周报' } }] },
        Date: { date: { start: '2026-01-22' } },
        Tags: { multi_select: [{ name: '工作' }, { name: '重要' }] },
      },
    });
    expect(new SchemaValidator().validate(notionSchema, args).valid).toBe(true);
    // Without a date the Date property is left out rather than sent empty.
    expect((templateMap(template, notionSchema, { ...item, date: undefined }, NOW).properties as object)).not.toHaveProperty('Date');
  });

  it('interpolates with filters, keeps types for whole placeholders, and drops missing optional values', () => {
    expect(
      renderTemplate(
        {
          subject: '[{{ intent | upper }}] {{ title }}',
          labels: '{{ tags }}',
          first: '{{ entities | first }}',
          joined: '{{ tags | join(" / ") }}',
          slug: '{{ "Hello, World — 2026!" | slug }}',
          when: '{{ today }}',
          project: '{{ frontmatter.project }}',
          missing: '{{ folder }}',
          fallback: '{{ folder | default("Inbox") }}',
          lines: '{{ content | lines }}',
          short: '{{ content | truncate(3) }}',
        },
        item,
        NOW,
      ),
    ).toEqual({
      subject: '[TODO] 周报',
      labels: ['工作', '重要'],
      first: 'Dana',
      joined: '工作 / 重要',
      slug: 'hello-world-2026',
      when: '2026-01-20',
      project: 'ops',
      fallback: 'Inbox',
      lines: ['完成周报'],
      short: '完成…',
    });
    expect(() => renderTemplate({ x: '{{ title | shout }}' }, item, NOW)).toThrow(/Unknown mapping filter "shout"/);
  });

  it('guesses arguments from the tool schema when a route has no mapping, and never invents unknown required fields', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        body: { type: 'string' },
        labels: { type: 'array', items: { type: 'string' } },
        due_date: { type: 'string', format: 'date-time' },
        kind: { type: 'string', enum: ['note', 'todo', 'event'] },
        workspace_id: { type: 'string' },
        extra: { type: 'object', properties: { priority: { type: 'integer' } } },
      },
      required: ['name', 'workspace_id'],
    };
    expect(schemaDefaults(schema, item)).toEqual({ name: '周报', body: '完成周报', labels: ['工作', '重要'], due_date: '2026-01-22T00:00:00.000Z', kind: 'todo' });
    const v = new SchemaValidator().validate(schema, schemaDefaults(schema, item));
    expect(v).toEqual({ valid: false, errors: ['(root): missing required property "workspace_id"'] });
  });
});

describe('LLM mapping: validate, repair once, then fall back only if allowed', () => {
  const schema = { type: 'object', properties: { title: { type: 'string' }, priority: { type: 'string', enum: ['low', 'high'] } }, required: ['title', 'priority'], additionalProperties: false };
  const validator = new SchemaValidator();
  const scripted = (answers: string[]): LlmClient & { prompts: string[] } => {
    const prompts: string[] = [];
    return { name: 'scripted', prompts, complete: async (r) => (prompts.push(r.prompt), answers.shift() ?? '') };
  };
  const run = (llm: LlmClient | undefined, allowFallback: boolean) =>
    llmMap({ llm, item, instructions: 'Title from the title; priority high for todos.', tool: 'create_task', schema, validate: (a) => validator.validate(schema, a), allowFallback, fallback: () => ({ title: item.title, priority: 'low' }) });

  it('accepts a valid first answer (even wrapped in a code fence) and uses the seed\'s prompt', async () => {
    const llm = scripted(['Sure:\n```json\n{"title":"周报","priority":"high"}\n```']);
    const r = await run(llm, false);
    expect(r).toMatchObject({ mapper: 'llm', args: { title: '周报', priority: 'high' } });
    expect(llm.prompts[0]).toContain('User instructions: Title from the title');
    expect(llm.prompts[0]).toContain('Target tool: create_task');
    expect(llm.prompts[0]).toContain('Tool schema: {"type":"object"');
  });

  it('repairs once with the validation errors in the prompt', async () => {
    const llm = scripted(['{"title":"周报","priority":"urgent"}', '{"title":"周报","priority":"high"}']);
    const r = await run(llm, false);
    expect(r.mapper).toBe('llm-repaired');
    expect(llm.prompts[1]).toContain('/priority: must be one of low, high');
    expect(r.attempts.map((a) => a.errors.length)).toEqual([1, 0]);
  });

  it('after a failed repair: falls back when the route allows it, otherwise fails saying why', async () => {
    const bad = () => scripted(['{"title":1}', '{"nope":true}']);
    expect(await run(bad(), true)).toMatchObject({ mapper: 'fallback', args: { title: '周报', priority: 'low' } });
    await expect(run(bad(), false)).rejects.toThrow(/after one repair.*turn on "allow fallback"/);
    const none = run(undefined, false);
    await expect(none).rejects.toThrow(/No LLM is available/);
  });

  describe('through an OpenAI-compatible endpoint (a real local HTTP server)', () => {
    let server: http.Server | undefined;
    afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

    it('posts chat completions with the model and key, and maps from the answer', async () => {
      const seen: Array<{ auth?: string; body: { model: string; messages: Array<{ role: string; content: string }> } }> = [];
      server = http.createServer((req, res) => {
        let raw = '';
        req.on('data', (c) => (raw += c));
        req.on('end', () => {
          seen.push({ auth: req.headers.authorization, body: JSON.parse(raw) });
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: '{"title":"周报","priority":"high"}' } }] }));
        });
      });
      await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
      const port = (server.address() as AddressInfo).port;
      const r = await run(openAiLlm({ base_url: `http://127.0.0.1:${port}/v1/`, model: 'llama3.2', api_key: 'k-123' }), false);
      expect(r.args).toEqual({ title: '周报', priority: 'high' });
      expect(seen[0]?.auth).toBe('Bearer k-123');
      expect(seen[0]?.body.model).toBe('llama3.2');
      expect(seen[0]?.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    });

    it('an endpoint that is down falls back when allowed', async () => {
      server = http.createServer((_req, res) => {
        res.statusCode = 500;
        res.end();
      });
      await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
      const port = (server.address() as AddressInfo).port;
      const r = await run(openAiLlm({ base_url: `http://127.0.0.1:${port}/v1`, model: 'm' }), true);
      expect(r.mapper).toBe('fallback');
      expect(r.reasoning).toMatch(/HTTP 500/);
    });
  });
});

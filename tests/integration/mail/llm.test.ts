import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailServiceForTest } from '../../unit/mail/helpers';
import { callTool, startTestOwner, REPO_ROOT, type TestOwner } from '../../helpers/owner';
import { sharedContracts } from './support';

const DEV = path.join(REPO_ROOT, 'tests/fixtures/mail-dev');
const read = (f: string) => fs.readFileSync(path.join(DEV, f), 'utf8');
const VAULT = {
  '_brain_config/mail/taxonomies/priya.yaml': read('taxonomy.yaml'),
  '_brain_config/mail/policies/priya.md': read('policy.md'),
  '_brain_config/mail/schemas/flight.json': read('schemas/flight.json'),
};

interface Seen {
  body: { response_format?: { type: string; json_schema: { name: string; schema: Record<string, unknown> } }; messages: Array<{ role: string; content: string }> };
}

/** A real OpenAI-compatible server on 127.0.0.1: `answer` decides the content for each request. */
async function startLlm(answer: (req: Seen['body']) => string) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(data) as Seen['body'];
      seen.push({ body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answer(body) }, finish_reason: 'stop' }] }));
    });
  });
  const port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as net.AddressInfo).port)));
  return { base: `http://127.0.0.1:${port}/v1`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const GOOD: Record<string, string> = {
  triage: JSON.stringify({ intent: 'trips', urgency: 'high', sentiment: 'positive', confidence: 0.83 }),
  Flight_booking: JSON.stringify({ airline: 'Invented Air', flight_number: 'TP 1351', origin: 'LIS', destination: 'BER', departs_at: '2026-09-12T07:40:00+01:00' }),
  reply: JSON.stringify({ reply: 'Hi Amara,\n\nI will send the churn numbers. [NEEDS APPROVAL: date for the cohort analysis]' }),
};

describe('the OpenAI-compatible endpoint (config llm), real HTTP on 127.0.0.1', () => {
  let good: Awaited<ReturnType<typeof startLlm>>;
  let bad: Awaited<ReturnType<typeof startLlm>>;
  beforeAll(async () => {
    good = await startLlm((b) => GOOD[b.response_format?.json_schema.name ?? ''] ?? 'null');
    bad = await startLlm((b) => (b.response_format?.json_schema.name === 'triage' ? '{"intent":"trips","urgency":"extreme"}' : 'Sure! Here is what I think: not JSON at all'));
  });
  afterAll(async () => {
    await good?.close();
    await bad?.close();
  });

  async function service(base: string | undefined) {
    const t = mailServiceForTest({}, VAULT);
    if (base) Object.assign(t.ctx.config.file, { llm: { base_url: base, model: 'local-test' } });
    t.mail.createInbox({ id: 'p', address: 'priya@fernhill.example' });
    await t.mail.importPath('p', path.join(DEV, 'mailbox.mbox'));
    const id = (m: string) => (t.db.prepare('SELECT id FROM mail_messages WHERE internet_message_id = ?').get(`<${m}>`) as { id: string }).id;
    return { t, id };
  }

  it('triage, extraction and drafts go through it with the schema as response_format, validated', async () => {
    const { t, id } = await service(good.base);
    try {
      const tri = await t.mail.triageMessage({ message_id: id('pnr-q7k2lm@flytap.example'), taxonomy_id: 'priya' });
      expect(tri).toEqual({ intent: 'trips', urgency: 'high', sentiment: 'positive', confidence: 0.83 });
      const req = good.seen.find((s) => s.body.response_format?.json_schema.name === 'triage')!;
      expect(req.body.response_format!.type).toBe('json_schema');
      expect((req.body.response_format!.json_schema.schema.properties as Record<string, { enum: string[] }>).intent.enum).toContain('household');
      expect(req.body.messages[0].content).toContain('needs my attention within hours');

      const ex = await t.mail.extract({ message_id: id('pnr-q7k2lm@flytap.example'), schema_id: 'flight' });
      expect(ex.data).toEqual({ flight_number: 'TP 1351', origin: 'LIS', destination: 'BER', departs_at: '2026-09-12T07:40:00+01:00' });
      expect(ex.validation_errors.join(' ')).toMatch(/airline: the model answered "Invented Air", which the message does not contain/);

      const m = t.mail.store.message(id('churn-ask@fernhill.example'));
      const d = await t.mail.draftReply({ thread_id: m.thread_id, policy_id: 'priya', goal: 'answer Amara' });
      expect(d.generator).toBe('llm');
      expect(d.body.trim().endsWith('Priya')).toBe(true); // signature appended when the model forgot it
    } finally {
      await t.close();
    }
  });

  it('falls back to on-device on garbage or schema-invalid answers, with the same result as no LLM at all', async () => {
    const a = await service(bad.base);
    const b = await service(undefined);
    try {
      for (const m of ['pnr-q7k2lm@flytap.example', 'boiler@lettings.example']) {
        expect(await a.t.mail.triageMessage({ message_id: a.id(m), taxonomy_id: 'priya' })).toEqual(await b.t.mail.triageMessage({ message_id: b.id(m), taxonomy_id: 'priya' }));
      }
      expect(await a.t.mail.extract({ message_id: a.id('pnr-q7k2lm@flytap.example'), schema_id: 'flight' })).toEqual(await b.t.mail.extract({ message_id: b.id('pnr-q7k2lm@flytap.example'), schema_id: 'flight' }));
      const m = a.t.mail.store.message(a.id('churn-ask@fernhill.example'));
      const d = await a.t.mail.draftReply({ thread_id: m.thread_id, policy_id: 'priya', goal: 'Reply to this message.' });
      expect(d.generator).toBe('template');
      expect(bad.seen.length).toBe(4); // two triages, one extraction, one draft: each asked once, then on-device
    } finally {
      await a.t.close();
      await b.t.close();
    }
  });
});

describe('MCP sampling from the connected client (real MCP client over Streamable HTTP)', () => {
  let owner: TestOwner;
  const contracts = sharedContracts();
  beforeAll(async () => {
    owner = await startTestOwner({ vaultFiles: VAULT });
    await owner.api('POST', '/api/mail/inboxes', { id: 'p', address: 'priya@fernhill.example' });
    const r = await fetch(`${owner.url}/api/mail/import?inbox=p&filename=mailbox.mbox`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: fs.readFileSync(path.join(DEV, 'mailbox.mbox')) });
    expect(r.status).toBe(200);
  });
  afterAll(async () => owner?.close());

  async function client(answer: (system: string) => string) {
    const c = new Client({ name: 'sampling-client', version: '1.0.0' }, { capabilities: { sampling: {} } });
    const systems: string[] = [];
    c.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      systems.push(req.params.systemPrompt ?? '');
      return { role: 'assistant', model: 'scripted', content: { type: 'text', text: answer(req.params.systemPrompt ?? '') } };
    });
    await c.connect(new StreamableHTTPClientTransport(new URL(owner.url + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${owner.token}` } } }));
    return { c, systems };
  }

  it('triage_message and extract_to_schema use the client\'s model, and fall back when it answers garbage', async () => {
    const hits = await owner.api<{ results: Array<{ message_id: string }> }>('GET', '/api/mail/search?inbox=p&q=Lisbon%20Berlin');
    const messageId = hits.body.results[0].message_id;
    const good = await client((sys) => (sys.includes('You triage email') ? '```json\n{"intent":"household","urgency":"high","sentiment":"negative","confidence":0.7}\n```' : '{"flight_number":"TP 1351","origin":"LIS"}'));
    try {
      const tri = await callTool<Record<string, unknown>>(good.c, 'triage_message', { message_id: messageId, taxonomy_id: 'priya' });
      contracts.assert('tools/triage_message.output', tri);
      expect(tri).toMatchObject({ intent: 'household', urgency: 'high', sentiment: 'negative' });
      const ex = await callTool<{ data: Record<string, unknown> }>(good.c, 'extract_to_schema', { message_id: messageId, schema_id: 'flight' });
      contracts.assert('tools/extract_to_schema.output', ex);
      expect(ex.data).toEqual({ flight_number: 'TP 1351', origin: 'LIS' });
      expect(good.systems[0]).toContain('valid against this JSON Schema');
    } finally {
      await good.c.close();
    }
    const bad = await client(() => 'I cannot help with that.');
    try {
      const tri = await callTool<Record<string, unknown>>(bad.c, 'triage_message', { message_id: messageId, taxonomy_id: 'priya' });
      contracts.assert('tools/triage_message.output', tri);
      expect(tri).toMatchObject({ intent: 'trips', urgency: 'low' });
      const ex = await callTool<{ data: Record<string, unknown> }>(bad.c, 'extract_to_schema', { message_id: messageId, schema_id: 'flight' });
      expect(ex.data).toMatchObject({ flight_number: 'TP 1351', origin: 'LIS', destination: 'BER', booking_reference: 'Q7K2LM' });
      expect(bad.systems.length).toBeGreaterThanOrEqual(2);
    } finally {
      await bad.c.close();
    }
  });
});

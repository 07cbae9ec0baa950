/**
 * The LLM path for triage, extraction and drafts: MCP sampling from the connected client, else
 * the configured OpenAI-compatible endpoint (`config.json` `llm`), asked for JSON with the
 * schema as the response format. Every answer is parsed and validated against that schema; any
 * failure (timeout, HTTP error, invalid JSON, schema-invalid) makes the caller fall back to the
 * on-device path.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Config } from '../../kernel/config';
import type { SampleRequest } from '../../kernel/types';
import type { Taxonomy } from './config';
import type { ExtractResult } from './extract';
import type { MessageFacts } from './facts';
import type { MessageRow } from './store';
import type { TriageResult } from './triage';
import { latestText } from './text';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

type LlmConfig = NonNullable<Config['file']['llm']>;

export interface JsonRequest {
  name: string;
  system: string;
  prompt: string;
  schema: Record<string, unknown>;
  maxTokens?: number;
}

export interface StructuredLlm {
  /** Which generator answered last ('sampling' or 'llm'). */
  generator: 'sampling' | 'llm';
  /** Parsed JSON that validates against `req.schema`; throws on any failure of every generator. */
  json<T>(req: JsonRequest): Promise<T>;
}

export const LLM_TIMEOUT_MS = 30_000;

/** The JSON in a model's answer: the whole text, a ```json fence, or the first {...} block. */
export function parseJsonAnswer(text: string): unknown {
  const t = text.trim();
  const fence = /```(?:json)?\s*([\s\S]*?)```/i.exec(t);
  const cand = fence?.[1] ?? t;
  try {
    return JSON.parse(cand);
  } catch {
    const a = cand.indexOf('{');
    const b = cand.lastIndexOf('}');
    if (a >= 0 && b > a) return JSON.parse(cand.slice(a, b + 1));
    throw new Error('the answer is not JSON');
  }
}

async function openAiJson(llm: LlmConfig, req: JsonRequest, signal?: AbortSignal): Promise<string> {
  const url = llm.base_url.replace(/\/+$/, '') + '/chat/completions';
  const timeout = AbortSignal.timeout(LLM_TIMEOUT_MS);
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(llm.api_key ? { authorization: `Bearer ${llm.api_key}` } : {}) },
    body: JSON.stringify({
      model: llm.model,
      messages: [
        { role: 'system', content: req.system },
        { role: 'user', content: req.prompt },
      ],
      max_tokens: req.maxTokens ?? 800,
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: req.name, schema: req.schema, strict: false } },
    }),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  if (!r.ok) throw new Error(`LLM endpoint answered HTTP ${r.status}`);
  const j = (await r.json()) as { choices?: Array<{ message?: { content?: string } }> };
  return j.choices?.[0]?.message?.content ?? '';
}

export function structuredLlm(o: { sample?: (r: SampleRequest) => Promise<string>; llm?: LlmConfig; signal?: AbortSignal }): StructuredLlm | undefined {
  const tries: Array<['sampling' | 'llm', (req: JsonRequest) => Promise<string>]> = [];
  if (o.sample) {
    const sample = o.sample;
    tries.push([
      'sampling',
      (req) => {
        const timeout = new Promise<string>((_, rej) => setTimeout(() => rej(new Error('sampling timed out')), LLM_TIMEOUT_MS).unref());
        return Promise.race([sample({ system: `${req.system}\nAnswer with one JSON object only, valid against this JSON Schema:\n${JSON.stringify(req.schema)}`, prompt: req.prompt, maxTokens: req.maxTokens ?? 800 }), timeout]);
      },
    ]);
  }
  if (o.llm) {
    const llm = o.llm;
    tries.push(['llm', (req) => openAiJson(llm, req, o.signal)]);
  }
  const [firstTry] = tries;
  if (!firstTry) return undefined;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const out: StructuredLlm = {
    generator: firstTry[0],
    async json<T>(req: JsonRequest): Promise<T> {
      const schema = { ...req.schema };
      delete schema.$id;
      delete schema.$schema;
      const validate = ajv.compile(schema);
      const errors: string[] = [];
      for (const [gen, run] of tries) {
        try {
          const v = parseJsonAnswer(await run({ ...req, schema }));
          if (!validate(v)) throw new Error(`schema-invalid: ${ajv.errorsText(validate.errors)}`);
          out.generator = gen;
          return v as T;
        } catch (e) {
          errors.push(`${gen}: ${(e as Error).message}`);
        }
      }
      throw new Error(errors.join('; '));
    },
  };
  return out;
}

function messageForPrompt(m: MessageRow): string {
  return `From: ${m.from?.name ? `${m.from.name} <${m.from.email}>` : (m.from?.email ?? 'unknown')}\nDate: ${m.created_at}\nSubject: ${m.subject}\n\n${(latestText(m.text) || m.text).slice(0, 6000)}`;
}

export async function llmTriage(llm: StructuredLlm, m: MessageRow, tax: Taxonomy, earlier: MessageRow[]): Promise<TriageResult> {
  const ids = tax.intents.map((i) => i.id);
  const schema = {
    type: 'object',
    additionalProperties: false,
    properties: {
      intent: { type: 'string', enum: [...ids, 'other'] },
      urgency: { type: 'string', enum: ['low', 'medium', 'high'] },
      sentiment: { type: 'string', enum: ['negative', 'neutral', 'positive'] },
      confidence: { type: 'number', minimum: 0, maximum: 1 },
    },
    required: ['intent', 'urgency', 'sentiment', 'confidence'],
  };
  const levels = (o: Record<string, string | undefined>) =>
    Object.entries(o)
      .filter(([, v]) => v)
      .map(([k, v]) => `- ${k}: ${v}`)
      .join('\n');
  const system = [
    `You triage email for one person with their own taxonomy "${tax.name}".`,
    'Intents:',
    ...tax.intents.map((i) => `- ${i.id}: ${i.description}${i.examples.length ? ` (e.g. ${i.examples.slice(0, 3).map((e) => JSON.stringify(e)).join('; ')})` : ''}`),
    tax.precedence.length ? `When two intents fit, prefer the earlier in: ${tax.precedence.join(', ')}.` : '',
    'Urgency levels:',
    levels({ high: tax.urgency.prose.high ?? tax.urgency.high.join(', '), medium: tax.urgency.prose.medium, low: tax.urgency.prose.low ?? tax.urgency.low.join(', ') }),
    'Sentiment levels:',
    levels(tax.sentiment.prose),
  ]
    .filter(Boolean)
    .join('\n');
  const ctx = earlier.length ? `Earlier in the thread:\n${earlier.slice(-3).map((e) => messageForPrompt(e).slice(0, 1200)).join('\n---\n')}\n\n` : '';
  const r = await llm.json<{ intent: string; urgency: TriageResult['urgency']; sentiment: TriageResult['sentiment']; confidence: number }>({ name: 'triage', system, prompt: `${ctx}Message to triage:\n${messageForPrompt(m)}`, schema, maxTokens: 200 });
  const route = tax.intents.find((i) => i.id === r.intent)?.route;
  return { intent: r.intent, urgency: r.urgency, sentiment: r.sentiment, confidence: Math.round(Math.min(0.99, Math.max(0.05, r.confidence)) * 100) / 100, ...(route ? { suggested_route: route } : {}) };
}

const squash = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Extraction with the user's schema as the response format; free-text values must occur in the message. */
export async function llmExtract(llm: StructuredLlm, m: MessageRow, schema: Record<string, unknown>, facts?: MessageFacts): Promise<ExtractResult> {
  const cal = facts?.events.length ? `\n\nCalendar data (text/calendar part):\n${JSON.stringify(facts.events)}` : '';
  const html = m.html ? `\n\nHTML part (tags stripped):\n${m.html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 4000)}` : '';
  const system = 'You extract data from one email into JSON that follows the given JSON Schema exactly. Use only facts stated in the email; omit a field when the email does not state it. Date-times are ISO 8601 with the UTC offset of the stated time zone.';
  const data = await llm.json<Record<string, unknown>>({ name: typeof schema.title === 'string' ? schema.title.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 'extraction' : 'extraction', system, prompt: `${messageForPrompt(m)}${html}${cal}`, schema: { ...schema, required: [] }, maxTokens: 800 });
  // Never invents: a free-text value the message does not contain is dropped.
  const hay = squash(`${m.subject} ${m.text} ${m.html ?? ''} ${JSON.stringify(facts?.events ?? [])}`);
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const validation_errors: string[] = [];
  for (const [k, v] of Object.entries(data)) {
    const p = props[k];
    if (typeof v === 'string' && p && !p.format && !p.pattern && !p.enum && !hay.includes(squash(v))) {
      validation_errors.push(`${k}: the model answered ${JSON.stringify(v)}, which the message does not contain; left empty`);
      delete data[k];
    }
  }
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const names = Object.keys(props);
  const missing_fields = [...required.filter((f) => !(f in data)), ...names.filter((f) => !(f in data) && !required.includes(f))];
  for (const f of required.filter((r) => !(r in data))) validation_errors.push(`${f}: required but not found in the message`);
  const coverage = names.length ? Object.keys(data).length / names.length : 0;
  return { data, confidence: Math.round((0.5 + 0.4 * coverage) * 100) / 100, missing_fields, validation_errors };
}

import { MailroomError } from '../../../kernel/errors';
import type { JsonObject, JsonSchema, SampleRequest } from '../../../kernel/types';
import type { RoutableItem } from '../types';
import type { Validation } from './validate';

export const MAPPING_FAILED = 'mapping_failed';
export const LLM_UNAVAILABLE = 'llm_unavailable';

/** Anything that turns a prompt into text: MCP sampling of the connected client, or an HTTP LLM. */
export interface LlmClient {
  readonly name: string;
  complete(req: SampleRequest): Promise<string>;
}

/** The connected MCP client's model, through sampling (`ToolContext.sample`). */
export function samplingLlm(sample: (req: SampleRequest) => Promise<string>): LlmClient {
  return { name: 'mcp-sampling', complete: (req) => sample(req) };
}

export interface OpenAiConfig {
  base_url: string;
  model: string;
  api_key?: string;
}

/** An OpenAI-compatible `/chat/completions` endpoint (e.g. a local Ollama at http://127.0.0.1:11434/v1). */
export function openAiLlm(cfg: OpenAiConfig, opts: { timeoutMs?: number } = {}): LlmClient {
  const url = cfg.base_url.replace(/\/+$/, '') + '/chat/completions';
  return {
    name: `openai-compatible:${cfg.model}`,
    async complete(req) {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(cfg.api_key ? { authorization: `Bearer ${cfg.api_key}` } : {}) },
          body: JSON.stringify({
            model: cfg.model,
            temperature: 0,
            max_tokens: req.maxTokens ?? 800,
            messages: [...(req.system ? [{ role: 'system', content: req.system }] : []), { role: 'user', content: req.prompt }],
          }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
        });
      } catch (e) {
        throw new MailroomError(LLM_UNAVAILABLE, `The LLM endpoint ${cfg.base_url} did not answer (${(e as Error).message}). Check config.json "llm".`);
      }
      if (!res.ok) throw new MailroomError(LLM_UNAVAILABLE, `The LLM endpoint ${cfg.base_url} answered HTTP ${res.status}. Check config.json "llm" (model name, key).`);
      const body = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
      return body.choices?.[0]?.message?.content ?? '';
    },
  };
}

const SYSTEM = 'You are a data transformation expert. Convert the inbox item to the target format. Output JSON format only: one JSON object, no prose.';

/** The seed's prompt template. */
export function mappingPrompt(item: RoutableItem, instructions: string, tool: string, schema: JsonSchema | null | undefined): string {
  return [
    `User instructions: ${instructions || '(none: map the obvious fields)'}`,
    '',
    'Item data:',
    JSON.stringify(item, null, 2),
    '',
    `Target tool: ${tool}`,
    `Tool schema: ${JSON.stringify(schema ?? {})}`,
    '',
    'Output JSON format only.',
  ].join('\n');
}

/** Finds the JSON object in a model's answer (models like to wrap it in fences or prose). */
export function extractJson(text: string): JsonObject {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const body = fenced?.[1] ?? text;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('the answer holds no JSON object');
  const v = JSON.parse(body.slice(start, end + 1)) as unknown;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('the answer is not a JSON object');
  return v as JsonObject;
}

export interface LlmAttempt {
  output: string;
  errors: string[];
}

export interface LlmMapResult {
  args: JsonObject;
  /** 'llm' first try, 'llm-repaired' after the one repair, 'fallback' when the route allowed it. */
  mapper: 'llm' | 'llm-repaired' | 'fallback';
  attempts: LlmAttempt[];
  reasoning: string;
}

/**
 * The seed's LLM mapping rules: ask, validate against the tool's schema, on invalid output ask
 * once more with the validation errors, then fall back to the deterministic mapping only if the
 * route allows it; otherwise fail with what was wrong.
 */
export async function llmMap(opts: {
  llm: LlmClient | undefined;
  item: RoutableItem;
  instructions: string;
  tool: string;
  schema: JsonSchema | null | undefined;
  validate(args: JsonObject): Validation;
  allowFallback: boolean;
  fallback(): JsonObject;
}): Promise<LlmMapResult> {
  const attempts: LlmAttempt[] = [];
  const fail = (why: string): LlmMapResult => {
    if (opts.allowFallback) return { args: opts.fallback(), mapper: 'fallback', attempts, reasoning: `${why} The route allows the simple mapping, so it was used.` };
    throw new MailroomError(MAPPING_FAILED, `${why} The route does not allow the simple mapping; fix the instructions, or turn on "allow fallback".`, { attempts });
  };
  if (!opts.llm) return fail('No LLM is available: the calling client offers no sampling and config.json has no "llm" endpoint.');
  const base = mappingPrompt(opts.item, opts.instructions, opts.tool, opts.schema);
  let prompt = base;
  for (let i = 0; i < 2; i++) {
    let output: string;
    try {
      output = await opts.llm.complete({ system: SYSTEM, prompt, maxTokens: 1200 });
    } catch (e) {
      attempts.push({ output: '', errors: [(e as Error).message] });
      return fail(`The LLM (${opts.llm.name}) failed: ${(e as Error).message}.`);
    }
    let args: JsonObject;
    try {
      args = extractJson(output);
    } catch (e) {
      attempts.push({ output, errors: [`not JSON: ${(e as Error).message}`] });
      prompt = `${base}\n\nYour previous answer was not a JSON object (${(e as Error).message}). Answer with the JSON object only.`;
      continue;
    }
    const v = opts.validate(args);
    attempts.push({ output, errors: v.errors });
    if (v.valid) return { args, mapper: i === 0 ? 'llm' : 'llm-repaired', attempts, reasoning: i === 0 ? `Mapped by ${opts.llm.name}.` : `Mapped by ${opts.llm.name} after one repair.` };
    prompt = `${base}\n\nYour previous answer:\n${JSON.stringify(args)}\nfailed validation against the tool schema:\n- ${v.errors.join('\n- ')}\nReturn a corrected JSON object only.`;
  }
  return fail(`The LLM's answer did not match the tool's input schema after one repair (${attempts.at(-1)?.errors.join('; ')}).`);
}

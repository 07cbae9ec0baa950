import { MailroomError } from '../../kernel/errors';

/** One argument of an MCP prompt. */
export interface PromptArgDef {
  name: string;
  description: string;
  required?: boolean;
  /** Longest accepted value (characters). Default 1000. */
  maxLength?: number;
  /** The completion source (a domain's `completions` key, e.g. `mail.inbox`) its values come from. */
  complete?: string;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: { type: 'text'; text: string };
}

/** What a prompt may use while it renders. */
export interface PromptContext {
  /** The session's own task id (MAILROOM_TASK_ID), when the client carries one. */
  sessionId?: string;
  /** Values of a completion source matching `typed` ([] when no domain offers that source). */
  complete(source: string, typed: string): Promise<string[]>;
}

/** One MCP prompt: one file per prompt in `mcp/prompts/`, registered once in `createMcpSurface`. */
export interface PromptDef {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgDef[];
  /** Renders the messages for valid arguments (checked by `checkPromptArgs` first). */
  render(args: Record<string, string>, ctx: PromptContext): Promise<{ description?: string; messages: PromptMessage[] }>;
}

export const definePrompt = (def: PromptDef): PromptDef => def;

export const userText = (text: string): PromptMessage => ({ role: 'user', content: { type: 'text', text } });

/** Required arguments present, every value a string within its length; unknown names refused. */
export function checkPromptArgs(prompt: PromptDef, raw: Record<string, unknown> | undefined): Record<string, string> {
  const args: Record<string, string> = {};
  const known = new Map(prompt.arguments.map((a) => [a.name, a]));
  for (const [k, v] of Object.entries(raw ?? {})) {
    const def = known.get(k);
    if (!def) throw new MailroomError('invalid_argument', `Prompt ${prompt.name} has no argument '${k}'; its arguments are: ${[...known.keys()].join(', ') || 'none'}.`, { argument: k });
    if (typeof v !== 'string') throw new MailroomError('invalid_argument', `Argument '${k}' of prompt ${prompt.name} must be a string.`, { argument: k });
    const max = def.maxLength ?? 1000;
    if (v.length > max) throw new MailroomError('invalid_argument', `Argument '${k}' of prompt ${prompt.name} is ${v.length} characters; at most ${max}.`, { argument: k, max });
    if (v.trim()) args[k] = v;
  }
  for (const a of prompt.arguments) {
    if (a.required && args[a.name] === undefined) throw new MailroomError('invalid_argument', `Prompt ${prompt.name} needs the argument '${a.name}': ${a.description}`, { argument: a.name });
  }
  return args;
}

/** Refuses a value that is not one of the source's known values, listing a few that are. */
export async function mustBeKnown(ctx: PromptContext, source: string, what: string, value: string): Promise<void> {
  const all = await ctx.complete(source, '');
  if (all.includes(value)) return;
  const hint = all.length ? ` Known: ${all.slice(0, 10).join(', ')}${all.length > 10 ? ', …' : ''}.` : ' There are none yet.';
  throw new MailroomError('not_found', `No ${what} '${value}'.${hint}`, { [what.replace(/\s+/g, '_')]: value });
}

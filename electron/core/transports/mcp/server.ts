import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode as RpcError,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  SetLevelRequestSchema,
  type LoggingLevel,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toErrorShape } from '../../kernel/errors';
import type { CompletionSource, JsonObject, ResourceTemplateDef, SampleRequest, ToolContext, ToolDef } from '../../kernel/types';
import type { LogLevel, LogRecord, Logger } from '../../kernel/log';
import { checkPromptArgs, type PromptContext, type PromptDef } from './prompt';
import { mailroomPrompts } from './prompts';

export interface McpSurface {
  version: string;
  tools: ToolDef[];
  resourceTemplates: ResourceTemplateDef[];
  log: Logger;
  /** MCP prompts (mcp/prompts/, one file each). */
  prompts?: PromptDef[];
  /** Named completion sources the prompts' arguments complete from (the domains'). */
  completions?: Record<string, CompletionSource>;
  /** Mailroom's log, forwarded to each session as `notifications/message` at or above its level. */
  logs?: Pick<Logger, 'subscribe'>;
  /** Told when a client finishes initializing (the mailbox marks its session running). */
  onSession?: (info: McpSessionInfo & { client?: string }) => void;
}

export interface McpSessionInfo {
  /** The session's task id (MAILROOM_TASK_ID), when the client carries one. */
  sessionId?: string;
}

/** What createMcpSurface needs of a core (structural, so mcp/ does not import app/). */
export interface McpSurfaceSource {
  config: { version: string };
  tools: ToolDef[];
  resourceTemplates: ResourceTemplateDef[];
  completions?: Record<string, CompletionSource>;
  log: Logger;
  ctx: { events: { emit(name: string, payload: unknown): void } };
}

/**
 * The MCP surface of a core: every domain's tools and resource templates, Mailroom's prompts
 * (completing their arguments from the domains' completion sources), the core's log for log
 * notifications, and an initialized session reported as the `mcp:session` event (the mailbox
 * marks the session running).
 */
export function createMcpSurface(core: McpSurfaceSource, log: Logger = core.log.child('mcp')): McpSurface {
  return {
    version: core.config.version,
    tools: core.tools,
    resourceTemplates: core.resourceTemplates,
    prompts: mailroomPrompts,
    completions: core.completions ?? {},
    logs: core.log,
    log,
    onSession: (info) => core.ctx.events.emit('mcp:session', info),
  };
}

const encodeListCursor = (t: number, c?: string) => Buffer.from(JSON.stringify({ t, c }), 'utf8').toString('base64url');

function decodeListCursor(cursor: string | undefined, templates: number): { t: number; c?: string } {
  if (cursor === undefined) return { t: 0 };
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { t?: unknown; c?: unknown };
    if (Number.isInteger(v.t) && (v.t as number) >= 0 && (v.t as number) < templates && (v.c === undefined || typeof v.c === 'string')) return { t: v.t as number, c: v.c as string | undefined };
  } catch {
    // fall through
  }
  throw new McpError(RpcError.InvalidParams, 'Invalid cursor: pass the nextCursor of the previous resources/list reply, or none to start again.', { code: 'invalid_argument' });
}

export function toolResult(structured: JsonObject): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A tool error: `isError` with the `{ code, message, details? }` shape as JSON text. Not as
 * structuredContent — clients validate that against the tool's output schema, which describes
 * success.
 */
export function toolError(err: unknown): CallToolResult {
  const shape = toErrorShape(err);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(shape) }] };
}

/**
 * One MCP server over every domain's tools and resources. Built per connection (stdio, or each
 * Streamable HTTP session) so sampling goes back to the right client.
 */
/**
 * One JSON Schema validator for every session: the SDK otherwise builds a new Ajv (with its
 * formats) for each Server, i.e. for each Streamable HTTP session.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

export function createMcpServer(surface: McpSurface, session: McpSessionInfo = {}): Server {
  const hasResources = surface.resourceTemplates.length > 0;
  const prompts = surface.prompts ?? [];
  const server = new Server(
    { name: 'mailroom', version: surface.version, title: 'Mailroom' },
    {
      capabilities: {
        tools: {},
        ...(hasResources ? { resources: {} } : {}),
        ...(prompts.length ? { prompts: {}, completions: {} } : {}),
        ...(surface.logs ? { logging: {} } : {}),
      },
      instructions:
        'Mailroom is the local inbox for the user’s markdown vault, sessions and mail. Tools return JSON; errors are { code, message, details? }.',
      jsonSchemaValidator: (sharedValidator ??= new AjvJsonSchemaValidator()),
    },
  );
  const byName = new Map(surface.tools.map((t) => [t.name, t]));
  // Log forwarding starts once the session is initialized (a connection that never initializes
  // holds no subscription) and ends when it closes.
  const logs = surface.logs ? forwardLogs(server, surface.logs) : undefined;
  server.oninitialized = () => {
    logs?.start();
    surface.onSession?.({ ...session, client: server.getClientVersion()?.name });
  };
  server.onclose = () => logs?.stop();
  if (prompts.length) registerPrompts(server, prompts, surface.completions ?? {}, session);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: surface.tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object' },
      ...(t.outputSchema ? { outputSchema: t.outputSchema as { type: 'object' } } : {}),
      ...(t.annotations ? { annotations: t.annotations } : {}),
    })),
  }));

  const sample = async (req: SampleRequest): Promise<string> => {
    const r = await server.createMessage({
      systemPrompt: req.system,
      messages: [{ role: 'user', content: { type: 'text', text: req.prompt } }],
      maxTokens: req.maxTokens ?? 800,
    });
    const c = r.content as { type: string; text?: string } | Array<{ type: string; text?: string }>;
    const first = Array.isArray(c) ? c.find((x) => x.type === 'text') : c;
    return first?.type === 'text' ? (first.text ?? '') : '';
  };

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(RpcError.InvalidParams, `Unknown tool '${request.params.name}'. Call tools/list for the available tools.`);
    const ctx: ToolContext = {
      origin: 'mcp',
      sessionId: session.sessionId,
      sample: server.getClientCapabilities()?.sampling ? sample : undefined,
      signal: extra.signal,
    };
    try {
      const args = tool.parse(request.params.arguments ?? {});
      return toolResult(await tool.call(args as never, ctx));
    } catch (e) {
      const shape = toErrorShape(e);
      if (shape.code === 'internal') surface.log.error('tool failed', { tool: tool.name, error: String(e), stack: (e as Error).stack });
      return toolError(e);
    }
  });

  if (hasResources) {
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: surface.resourceTemplates.map((t) => ({
        name: t.name,
        uriTemplate: t.uriTemplate,
        description: t.description,
        mimeType: t.mimeType ?? 'application/json',
      })),
    }));
    server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
      // The cursor names the template to resume at and that template's own cursor; templates
      // with a plain `list` are listed whole, a paged one ends the page while it has more.
      const at = decodeListCursor(request.params?.cursor, surface.resourceTemplates.length);
      const resources: Array<{ uri: string; name: string; mimeType: string; description?: string }> = [];
      try {
        for (const [i, t] of surface.resourceTemplates.entries()) {
          if (i < at.t) continue;
          const mimeType = t.mimeType ?? 'application/json';
          if (t.listPage) {
            const page = await t.listPage(i === at.t ? at.c : undefined);
            resources.push(...page.resources.map((r) => ({ mimeType, ...r })));
            if (page.nextCursor) return { resources, nextCursor: encodeListCursor(i, page.nextCursor) };
          } else if (t.list) {
            resources.push(...(await t.list()).map((r) => ({ mimeType, ...r })));
          }
        }
      } catch (e) {
        const shape = toErrorShape(e);
        throw new McpError(shape.code === 'internal' ? RpcError.InternalError : RpcError.InvalidParams, shape.message, shape);
      }
      return { resources };
    });
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      let url: URL;
      try {
        url = new URL(request.params.uri);
      } catch {
        throw new McpError(RpcError.InvalidParams, `Not a URI: '${request.params.uri}'.`, { code: 'invalid_argument' });
      }
      for (const t of surface.resourceTemplates) {
        try {
          const text = t.readText ? await t.readText(url) : undefined;
          if (text !== undefined) return { contents: [{ uri: request.params.uri, mimeType: t.mimeType ?? 'text/plain', text }] };
          const body = await t.read?.(url);
          if (body !== undefined) {
            return { contents: [{ uri: request.params.uri, mimeType: t.mimeType ?? 'application/json', text: JSON.stringify(body) }] };
          }
        } catch (e) {
          const shape = toErrorShape(e);
          throw new McpError(shape.code === 'internal' ? RpcError.InternalError : RpcError.InvalidParams, shape.message, shape);
        }
      }
      throw new McpError(RpcError.InvalidParams, `No resource at '${request.params.uri}'.`, { code: 'not_found', message: 'Resource not found' });
    });
  }
  return server;
}

/** Values of a completion source, never throwing (a failing source completes nothing). */
async function completeWith(sources: Record<string, CompletionSource>, source: string | undefined, typed: string): Promise<string[]> {
  const fn = source ? sources[source] : undefined;
  if (!fn) return [];
  try {
    return await fn(typed);
  } catch {
    return [];
  }
}

const MAX_COMPLETIONS = 100;

/** prompts/list, prompts/get, and completion/complete for the prompts' arguments. */
function registerPrompts(server: Server, prompts: PromptDef[], sources: Record<string, CompletionSource>, session: McpSessionInfo): void {
  const byName = new Map(prompts.map((p) => [p.name, p]));
  const ctx: PromptContext = { sessionId: session.sessionId, complete: (source, typed) => completeWith(sources, source, typed) };

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: prompts.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: !!a.required })),
    })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = byName.get(request.params.name);
    if (!prompt) {
      throw new McpError(RpcError.InvalidParams, `Unknown prompt '${request.params.name}'. Call prompts/list for the available prompts.`, { code: 'not_found' });
    }
    try {
      return await prompt.render(checkPromptArgs(prompt, request.params.arguments), ctx);
    } catch (e) {
      const shape = toErrorShape(e);
      throw new McpError(shape.code === 'internal' ? RpcError.InternalError : RpcError.InvalidParams, shape.message, shape);
    }
  });

  // Completion for what the client cannot know: inbox ids, session ids. An unknown prompt or
  // argument, or one without a source, completes to nothing (not an error).
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    const source = ref.type === 'ref/prompt' ? byName.get(ref.name)?.arguments.find((a) => a.name === argument.name)?.complete : undefined;
    const all = await completeWith(sources, source, argument.value ?? '');
    return { completion: { values: all.slice(0, MAX_COMPLETIONS), total: all.length, hasMore: all.length > MAX_COMPLETIONS } };
  });
}

/** MCP's syslog levels, least severe first; Mailroom's four map onto debug, info, warning, error. */
const MCP_LEVELS: LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const TO_MCP: Record<LogLevel, LoggingLevel> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error' };
/** Until the client sets a level, only warnings and errors are sent. */
export const DEFAULT_MCP_LOG_LEVEL: LoggingLevel = 'warning';

/** Bearer tokens and `token=` query values inside strings (field keys are redacted by the logger). */
const scrub = (v: unknown, depth = 0): unknown => {
  if (typeof v === 'string') return v.replace(/(bearer\s+)[^\s"']+/gi, '$1[redacted]').replace(/([?&](?:access_)?token=)[^&\s"']+/gi, '$1[redacted]');
  if (depth > 6 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => scrub(x, depth + 1));
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, scrub(x, depth + 1)]));
};

/**
 * logging/setLevel, and — between start() (the session initialized) and stop() (it closed) —
 * `notifications/message` for Mailroom's log records at or above the session's level (default
 * warning).
 */
function forwardLogs(server: Server, logs: Pick<Logger, 'subscribe'>): { start(): void; stop(): void } {
  let min = MCP_LEVELS.indexOf(DEFAULT_MCP_LOG_LEVEL);
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    min = MCP_LEVELS.indexOf(request.params.level);
    return {};
  });
  let sending = false;
  let unsubscribe: (() => void) | undefined;
  const sink = (rec: LogRecord) => {
    const level = TO_MCP[rec.level];
    // Sending may log (a closed transport): never recurse into ourselves.
    if (sending || MCP_LEVELS.indexOf(level) < min) return;
    sending = true;
    try {
      const data = scrub({ message: rec.msg, ...(rec.fields ?? {}) });
      void server.sendLoggingMessage({ level, logger: rec.scope, data }).catch(() => undefined);
    } finally {
      sending = false;
    }
  };
  return {
    start: () => void (unsubscribe ??= logs.subscribe(sink)),
    stop: () => {
      unsubscribe?.();
      unsubscribe = undefined;
    },
  };
}

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode as RpcError,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toErrorShape } from '../../kernel/errors';
import type { JsonObject, ResourceTemplateDef, SampleRequest, ToolContext, ToolDef } from '../../kernel/types';
import type { Logger } from '../../kernel/log';

export interface McpSurface {
  version: string;
  tools: ToolDef[];
  resourceTemplates: ResourceTemplateDef[];
  log: Logger;
  /** Told when a client finishes initializing (the mailbox marks its session running). */
  onSession?: (info: McpSessionInfo & { client?: string }) => void;
}

export interface McpSessionInfo {
  /** The session's task id (MAILROOM_TASK_ID), when the client carries one. */
  taskId?: string;
}

/** What createMcpSurface needs of a core (structural, so mcp/ does not import app/). */
export interface McpSurfaceSource {
  config: { version: string };
  tools: ToolDef[];
  resourceTemplates: ResourceTemplateDef[];
  log: Logger;
  ctx: { events: { emit(name: string, payload: unknown): void } };
}

/**
 * The MCP surface of a core: every domain's tools and resource templates, and an initialized
 * session reported as the `mcp:session` event (the mailbox marks the session running).
 */
export function createMcpSurface(core: McpSurfaceSource, log: Logger = core.log.child('mcp')): McpSurface {
  return {
    version: core.config.version,
    tools: core.tools,
    resourceTemplates: core.resourceTemplates,
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
export function createMcpServer(surface: McpSurface, session: McpSessionInfo = {}): Server {
  const hasResources = surface.resourceTemplates.length > 0;
  const server = new Server(
    { name: 'mailroom', version: surface.version, title: 'Mailroom' },
    {
      capabilities: { tools: {}, ...(hasResources ? { resources: {} } : {}) },
      instructions:
        'Mailroom is the local inbox for the user’s markdown vault, sessions and mail. Tools return JSON; errors are { code, message, details? }.',
    },
  );
  const byName = new Map(surface.tools.map((t) => [t.name, t]));
  server.oninitialized = () => surface.onSession?.({ ...session, client: server.getClientVersion()?.name });

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
      taskId: session.taskId,
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
        for (let i = at.t; i < surface.resourceTemplates.length; i++) {
          const t = surface.resourceTemplates[i];
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

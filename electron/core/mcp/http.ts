import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpServer, type McpSurface } from './server';

/** Header the stdio bridge uses to carry its client's MAILROOM_TASK_ID to the owner. */
export const TASK_HEADER = 'x-mailroom-task-id';

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
}

/** MCP over Streamable HTTP at /mcp: one MCP server per session id. */
export function createMcpHttpHandler(surface: McpSurface) {
  const sessions = new Map<string, Session>();

  const rpcError = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };

  return {
    sessionCount: () => sessions.size,
    async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
      const sid = req.headers['mcp-session-id'];
      const sessionId = Array.isArray(sid) ? sid[0] : sid;
      if (sessionId) {
        const s = sessions.get(sessionId);
        if (!s) return rpcError(res, 404, 'Unknown MCP session; initialize a new one.');
        return s.transport.handleRequest(req, res, body);
      }
      if (req.method !== 'POST' || !(Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body))) {
        return rpcError(res, 400, 'No MCP session id: send initialize first.');
      }
      const taskHeader = req.headers[TASK_HEADER];
      const taskId = (Array.isArray(taskHeader) ? taskHeader[0] : taskHeader) || undefined;
      const server = createMcpServer(surface, { taskId });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server });
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
    async close(): Promise<void> {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((s) => s.server.close()));
    },
  };
}

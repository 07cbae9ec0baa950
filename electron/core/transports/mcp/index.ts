export { createMcpServer, createMcpSurface, toolResult, toolError, type McpSurface, type McpSessionInfo, type McpSurfaceSource } from './server';
export { createMcpHttpHandler, TASK_HEADER, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TTL_MS, type McpHttpOptions } from './http';
export { runStdioBridge, remoteUpstream, localUpstream, type Upstream, type UpstreamFactory } from './bridge';

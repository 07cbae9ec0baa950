export { createMcpServer, toolResult, toolError, type McpSurface, type McpSessionInfo } from './server';
export { createMcpHttpHandler, TASK_HEADER } from './http';
export { runStdioBridge, remoteUpstream, localUpstream, type Upstream, type UpstreamFactory } from './bridge';

import { ErrorCode as RpcError, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MailroomError } from '../../kernel/errors';

/** A tool answered with `isError`; the text is the server's own message. */
export class ToolCallError extends Error {
  constructor(
    message: string,
    readonly content: unknown,
  ) {
    super(message);
    this.name = 'ToolCallError';
  }
}

/** Failures worth another try: the transport broke or the server said "later". The seed's list, widened. */
const RETRYABLE = [
  /ECONNRESET/i,
  /ETIMEDOUT/i,
  /ECONNREFUSED/i,
  /EPIPE|broken pipe/i,
  /socket hang up/i,
  /process exited/i,
  /connection closed/i,
  /timed? ?out/i,
  /temporar(il)?y/i,
  /unavailable/i,
  /rate.?limit/i,
  /\b(429|502|503|504)\b/,
  /try again/i,
];

export interface Classified {
  retryable: boolean;
  message: string;
  code: string;
}

/** Decides whether a failed attempt is retried (backoff) or ends the route at once. */
export function classify(err: unknown): Classified {
  if (err instanceof MailroomError) {
    // Our own errors are decisions (bad config, failed adapter, invalid mapping), not accidents;
    // adapter start failures say so explicitly.
    return { retryable: err.details?.retryable === true, message: err.message, code: err.code };
  }
  if (err instanceof McpError) {
    if (err.code === RpcError.RequestTimeout) return { retryable: true, message: `The tool call timed out (${err.message}).`, code: 'timeout' };
    if (err.code === RpcError.ConnectionClosed) return { retryable: true, message: 'The server process exited or closed the connection during the call.', code: 'connection_closed' };
    return { retryable: false, message: err.message, code: 'tool_protocol_error' };
  }
  const message = err instanceof Error ? err.message : String(err);
  const retryable = RETRYABLE.some((p) => p.test(message));
  return { retryable, message, code: err instanceof ToolCallError ? 'tool_error' : retryable ? 'transient' : 'error' };
}

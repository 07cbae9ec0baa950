/** The SignalR JSON hub protocol (v1): record separator framing and message types. */
export const RS = '\u001e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
} as const;

export interface InvocationMessage {
  type: 1;
  invocationId?: string;
  target: string;
  arguments: unknown[];
  streamIds?: string[];
}

export type HubMessage =
  | InvocationMessage
  | { type: 2 | 4 | 5; invocationId?: string; [k: string]: unknown }
  | { type: 3; invocationId: string; result?: unknown; error?: string }
  | { type: 6 }
  | { type: 7; error?: string; allowReconnect?: boolean };

export function frame(message: object): string {
  return JSON.stringify(message) + RS;
}

/** Splits a text frame into records; keeps an incomplete tail for the next frame. */
export function splitRecords(buffer: string): { records: string[]; rest: string } {
  const parts = buffer.split(RS);
  const rest = parts.pop() ?? '';
  return { records: parts.filter((p) => p.length > 0), rest };
}

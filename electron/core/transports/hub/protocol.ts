/** The SignalR JSON hub protocol (v1): record separator framing and message types. */
export const RS = '\u001e';
const RS_BYTE = 0x1e;

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

/** Thrown by RecordReader when a record grows past its limit without a separator. */
export class RecordTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`A hub message is larger than ${limit} bytes.`);
    this.name = 'RecordTooLargeError';
  }
}

/**
 * Reassembles 0x1e-terminated records from WebSocket frames. Each frame's bytes are scanned once
 * (0x1e never occurs inside a multi-byte UTF-8 sequence, so splitting bytes is safe), and the
 * unterminated tail is bounded: past `maxPending` bytes `push` throws RecordTooLargeError.
 */
export class RecordReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(readonly maxPending: number) {}

  /** Returns the complete, non-empty records this chunk finishes. */
  push(chunk: Buffer): string[] {
    const records: string[] = [];
    let start = 0;
    for (let i = chunk.indexOf(RS_BYTE); i !== -1; i = chunk.indexOf(RS_BYTE, start)) {
      const piece = chunk.subarray(start, i);
      if (this.pendingBytes + piece.length > this.maxPending) throw new RecordTooLargeError(this.maxPending);
      const bytes = this.pendingBytes > 0 ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      if (bytes.length > 0) records.push(bytes.toString('utf8'));
      start = i + 1;
    }
    if (start < chunk.length) {
      const tail = chunk.subarray(start);
      if (this.pendingBytes + tail.length > this.maxPending) throw new RecordTooLargeError(this.maxPending);
      // Copy: the tail may outlive the frame buffer ws hands us.
      this.pending.push(Buffer.from(tail));
      this.pendingBytes += tail.length;
    }
    return records;
  }

  get bufferedBytes(): number {
    return this.pendingBytes;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown) => v === undefined || typeof v === 'string';

/** The handshake request `{ protocol, version }`, or why it is not one. */
export function parseHandshake(text: string): { ok: true; protocol: string; version: number } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Handshake is not JSON; send {"protocol":"json","version":1}.' };
  }
  if (!isPlainObject(v) || typeof v.protocol !== 'string') {
    return { ok: false, error: 'Handshake must be an object {"protocol":"json","version":1}.' };
  }
  if (v.protocol !== 'json') {
    return { ok: false, error: `Requested protocol '${v.protocol.slice(0, 100)}' is not available; use 'json'.` };
  }
  if (v.version !== undefined && v.version !== 1) {
    return { ok: false, error: `Protocol version '${String(v.version).slice(0, 20)}' is not supported; use {"protocol":"json","version":1}.` };
  }
  return { ok: true, protocol: v.protocol, version: 1 };
}

/**
 * A hub message after the handshake, checked field by field so no record can make the hub throw.
 * Unknown numeric types are returned as `{ type }` (newer protocol messages the hub ignores).
 */
export function parseMessage(text: string): { ok: true; msg: HubMessage | { type: number } } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Malformed message: not JSON.' };
  }
  if (!isPlainObject(v)) return { ok: false, error: 'Malformed message: a message must be a JSON object.' };
  if (typeof v.type !== 'number' || !Number.isInteger(v.type)) return { ok: false, error: "Malformed message: 'type' must be an integer." };
  switch (v.type) {
    case MessageType.Invocation:
    case MessageType.StreamInvocation:
      if (typeof v.target !== 'string') return { ok: false, error: "Malformed invocation: 'target' must be a string." };
      if (!Array.isArray(v.arguments)) return { ok: false, error: "Malformed invocation: 'arguments' must be an array." };
      if (!optString(v.invocationId)) return { ok: false, error: "Malformed invocation: 'invocationId' must be a string." };
      if (v.streamIds !== undefined && !(Array.isArray(v.streamIds) && v.streamIds.every((s) => typeof s === 'string'))) {
        return { ok: false, error: "Malformed invocation: 'streamIds' must be an array of strings." };
      }
      return { ok: true, msg: v as unknown as HubMessage };
    case MessageType.StreamItem:
    case MessageType.CancelInvocation:
    case MessageType.Completion:
      if (!optString(v.invocationId)) return { ok: false, error: "Malformed message: 'invocationId' must be a string." };
      return { ok: true, msg: v as unknown as HubMessage };
    case MessageType.Close:
      if (!optString(v.error)) return { ok: false, error: "Malformed close: 'error' must be a string." };
      return { ok: true, msg: v as unknown as HubMessage };
    default:
      return { ok: true, msg: { type: v.type } };
  }
}

/** The session mailbox's REST contract (`/api/sessions`) and DTOs (seed 003), shared by the owner, the renderer and the CLI. */
import { z } from 'zod';
import { route } from './route';

export const SessionStatus = z.enum(['queued', 'running', 'done']);
export type SessionStatus = z.infer<typeof SessionStatus>;
export const MessagePriority = z.enum(['normal', 'high']);
export type MessagePriority = z.infer<typeof MessagePriority>;

/** Largest message body, in UTF-8 bytes. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** A session (one Claude Code working folder with a mailbox). */
export const SessionDto = z.object({
  id: z.string(),
  name: z.string(),
  working_dir: z.string(),
  status: SessionStatus,
  created_at: z.string(),
  updated_at: z.string(),
  /** Undelivered messages. */
  pending: z.number(),
  /** Linked peer session ids. */
  peers: z.array(z.string()),
});
export type SessionDto = z.infer<typeof SessionDto>;

export const SessionMessageDto = z.object({
  id: z.number(),
  task_id: z.string(),
  /** 'user' or 'task:<id>' */
  sender: z.string(),
  body: z.string(),
  priority: MessagePriority,
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});
export type SessionMessageDto = z.infer<typeof SessionMessageDto>;

export const CreateTaskBody = z.object({
  name: z.string().min(1, 'a session needs a name'),
  working_dir: z.string().min(1, 'a session needs a working folder'),
  peer: z.string().min(1).optional(),
});
export type CreateTaskBody = z.infer<typeof CreateTaskBody>;
/** `body` and `priority` are checked by the mailbox itself (size, type), with its own messages. */
export const SendMessageBody = z.object({ body: z.unknown(), priority: z.unknown().optional(), from: z.string().min(1).optional() });
export interface SendMessageBody {
  body: string;
  priority?: MessagePriority;
  from?: string;
}
export const StatusBody = z.object({ status: SessionStatus });
export const LinkBody = z.object({ peer: z.string().min(1) });

export const UninstallSummary = z.object({
  removed: z.string(),
  restored: z.array(z.string()),
  merged: z.array(z.string()),
  skipped: z.array(z.object({ file: z.string(), reason: z.string() })),
});
export type UninstallSummary = z.infer<typeof UninstallSummary>;
export const SendReply = z.object({ message_id: z.number(), pending: z.number() });

export const sessionsPath = '/api/sessions';

export const MessagesQuery = z.object({
  limit: z
    .string()
    .optional()
    .transform((v) => {
      const n = Number(v ?? 500);
      return Number.isInteger(n) && n > 0 ? Math.min(n, 5_000) : 500;
    }),
});

export const sessionRoutes = {
  list: route('GET', '/api/sessions', { reply: z.array(SessionDto) }),
  create: route('POST', '/api/sessions', { body: CreateTaskBody, reply: SessionDto }),
  get: route('GET', '/api/sessions/:id', { reply: SessionDto }),
  remove: route('DELETE', '/api/sessions/:id', { reply: UninstallSummary }),
  setStatus: route('POST', '/api/sessions/:id/status', { body: StatusBody, reply: SessionDto }),
  done: route('POST', '/api/sessions/:id/done', { reply: SessionDto }),
  touch: route('POST', '/api/sessions/:id/touch', { reply: SessionDto }),
  link: route('POST', '/api/sessions/:id/peers', { body: LinkBody, reply: SessionDto }),
  /** The timeline, oldest first; `?limit=` (default 500, at most 5000). */
  messages: route('GET', '/api/sessions/:id/messages', { query: MessagesQuery, reply: z.array(SessionMessageDto) }),
  send: route('POST', '/api/sessions/:id/messages', { body: SendMessageBody, reply: SendReply }),
} as const;

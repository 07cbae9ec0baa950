import { z } from 'zod';

/** Zod shapes shared by the mailbox tools (one definition → JSON Schema, validation, types). */
export const taskIdArg = z
  .string()
  .min(1)
  .optional()
  .describe("The session's id. Defaults to the calling session's own id (MAILROOM_TASK_ID).");

export const priorityArg = z.enum(['normal', 'high']).optional().describe('"high" asks the receiving session to act on it before anything else. Default "normal".');

/** Length is checked in bytes by the service, so the error says "64 KiB" precisely. */
export const bodyArg = z.string().describe('The message, as markdown (at most 64 KiB).');

export const messageOut = z.object({
  id: z.number().int(),
  task_id: z.string(),
  sender: z.string().describe("'user' or 'task:<id>'"),
  body: z.string(),
  priority: z.enum(['normal', 'high']),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});

export const sentOut = z.object({
  message_id: z.number().int(),
  task_id: z.string(),
  pending: z.number().int().describe('Undelivered messages for that session, this one included.'),
});

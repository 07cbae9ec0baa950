import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import type { ToolDef } from '../../../kernel/types';
import type { SessionService } from '../service';
import { bodyArg, priorityArg, sentOut } from './schemas';

export function sendToTaskTool(svc: SessionService): ToolDef {
  return defineTool({
    name: 'send_to_task',
    title: 'Send to session',
    description:
      "Leaves a message in another session's mailbox; it reads it at its next tool boundary (check_inbox). Works for sessions not started yet: the message waits.",
    input: z.object({ task_id: z.string().min(1).describe('The receiving session id.'), body: bodyArg, priority: priorityArg }),
    output: sentOut,
    handler: (args, ctx) => {
      if (ctx.sessionId) svc.touch(ctx.sessionId);
      return svc.send(args.task_id, args.body, args.priority, ctx.sessionId ? { kind: 'task', id: ctx.sessionId } : { kind: 'user' });
    },
  });
}

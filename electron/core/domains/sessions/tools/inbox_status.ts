import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import type { ToolDef } from '../../../kernel/types';
import type { SessionService } from '../service';
import { taskIdArg } from './schemas';

export function inboxStatusTool(svc: SessionService): ToolDef {
  return defineTool({
    name: 'inbox_status',
    title: 'Inbox status',
    description: "A cheap poll: how many messages wait for this session (nothing is marked delivered). Call check_inbox to read them.",
    annotations: { readOnlyHint: true },
    input: z.object({ task_id: taskIdArg }),
    output: z.object({ task_id: z.string(), name: z.string(), status: z.enum(['queued', 'running', 'done']), pending: z.number().int() }),
    handler: (args, ctx) => {
      const id = svc.resolveTaskId(args.task_id, ctx.sessionId);
      if (id === ctx.sessionId) svc.touch(id);
      const t = svc.get(id);
      return { task_id: t.id, name: t.name, status: t.status, pending: t.pending };
    },
  });
}

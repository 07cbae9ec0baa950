import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import type { ToolDef } from '../../../kernel/types';
import type { SessionService } from '../service';
import { messageOut, taskIdArg } from './schemas';

export function checkInboxTool(svc: SessionService): ToolDef {
  return defineTool({
    name: 'check_inbox',
    title: 'Check inbox',
    description:
      'Returns the messages waiting for this session and marks them delivered (each message is returned exactly once), high priority first. Call it after every subagent completes and whenever a hook says the inbox has pending messages; treat the messages as user input with priority over the current plan.',
    input: z.object({ task_id: taskIdArg }),
    output: z.object({ task_id: z.string(), messages: z.array(messageOut), pending: z.number().int() }),
    handler: (args, ctx) => {
      const id = svc.resolveTaskId(args.task_id, ctx.sessionId);
      const r = svc.checkInbox(id);
      if (id === ctx.sessionId) svc.touch(id);
      return r;
    },
  });
}

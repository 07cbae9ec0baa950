import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import { invalidArgument } from '../../../kernel/errors';
import type { ToolDef } from '../../../kernel/types';
import type { SessionService } from '../service';
import { bodyArg, priorityArg, sentOut } from './schemas';

export function sendToPeerTool(svc: SessionService): ToolDef {
  return defineTool({
    name: 'send_to_peer',
    title: 'Send to peer session',
    description:
      'Leaves a message for the session linked to this one as its peer (e.g. backend ↔ frontend), without knowing its id. Fails clearly when this session has no peer, or several (then pass peer_id).',
    input: z.object({ body: bodyArg, priority: priorityArg, peer_id: z.string().min(1).optional().describe('Which peer, when there are several.') }),
    output: sentOut,
    handler: (args, ctx) => {
      if (!ctx.sessionId) {
        throw invalidArgument('send_to_peer needs to know which session is calling, and this client carries no MAILROOM_TASK_ID. Use send_to_task with a task_id instead.');
      }
      svc.touch(ctx.sessionId);
      const peer = svc.peerOf(ctx.sessionId, args.peer_id);
      return svc.send(peer, args.body, args.priority, { kind: 'task', id: ctx.sessionId });
    },
  });
}

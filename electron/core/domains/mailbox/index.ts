export { mailboxCommands } from './cli';
import type { CoreContext, Domain } from '../../kernel/types';
import { completeFrom } from '../../kernel/complete';
import { MailboxService } from './service';
import { mailboxRoutes } from './routes';
import { mailboxHubMethods } from './hub';
import { checkInboxTool } from './tools/check_inbox';
import { inboxStatusTool } from './tools/inbox_status';
import { sendToTaskTool } from './tools/send_to_task';
import { sendToPeerTool } from './tools/send_to_peer';

export { MailboxService, BADGE_KEY } from './service';
export { installMailbox, uninstallMailbox, hookCommand, claudeMdBlock, BLOCK_START, BLOCK_END, type InstallRecord } from './installer';
export { TASK_NOT_FOUND } from './store';

export type Mailbox = Domain & { service: MailboxService };

/** The session mailbox (seed 003): sessions, their messages and peers, over MCP, REST and the hub. */
export function createMailbox(ctx: CoreContext): Mailbox {
  const service = new MailboxService(ctx);
  let offMcpSession: (() => void) | undefined;
  return {
    name: 'mailbox',
    service,
    tools: [checkInboxTool(service), sendToTaskTool(service), inboxStatusTool(service), sendToPeerTool(service)],
    routes: mailboxRoutes(service),
    completions: {
      // Sessions with messages waiting first, then the most recently active.
      'mailbox.task': (typed) =>
        service.store.ready()
          ? completeFrom(
              [...service.store.list()].sort((a, b) => Number(b.pending > 0) - Number(a.pending > 0) || b.updated_at.localeCompare(a.updated_at)).map((t) => ({ id: t.id, labels: [t.name] })),
              typed,
            )
          : [],
    },
    hubMethods: mailboxHubMethods(service),
    counts: (): Record<string, number> => (service.store.ready() ? { sessions: service.store.list().length, session_messages_pending: service.store.totalPending() } : {}),
    start() {
      // A session's first MCP call of any kind marks it running, when the MCP layer announces
      // sessions carrying a task id (`mcp:session` { taskId }); mailbox tools and the hook do it too.
      offMcpSession = ctx.events.on<{ taskId?: string }>('mcp:session', (p) => {
        if (p?.taskId) service.touch(p.taskId);
      });
      // Until migration 003 is in the state DB's list the tables are absent: stay inert, not fatal.
      if (!service.store.ready()) {
        ctx.log.error('mailbox tables are missing: migration 003_mailbox is not registered in db/migrations/index.ts; sessions stay off');
        return;
      }
      service.refreshBadge();
    },
    stop() {
      offMcpSession?.();
      offMcpSession = undefined;
    },
  };
}

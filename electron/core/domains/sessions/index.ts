export { sessionCommands } from './cli';
import type { CoreContext, Domain } from '../../kernel/types';
import { completeFrom } from '../../kernel/complete';
import { SessionService } from './service';
import { sessionRoutes } from './routes';
import { sessionHubMethods } from './hub';
import { checkInboxTool } from './tools/check_inbox';
import { inboxStatusTool } from './tools/inbox_status';
import { sendToTaskTool } from './tools/send_to_task';
import { sendToPeerTool } from './tools/send_to_peer';

export { SessionService, BADGE_KEY } from './service';
export { installMailbox, uninstallMailbox, hookCommand, claudeMdBlock, BLOCK_START, BLOCK_END, type InstallRecord } from './installer';
export { TASK_NOT_FOUND } from './store';

export type SessionsDomain = Domain & { service: SessionService };

/** The session mailbox (seed 003): sessions, their messages and peers, over MCP, REST and the hub. */
export function createSessions(ctx: CoreContext): SessionsDomain {
  const service = new SessionService(ctx);
  let offMcpSession: (() => void) | undefined;
  return {
    name: 'sessions',
    service,
    tools: [checkInboxTool(service), sendToTaskTool(service), inboxStatusTool(service), sendToPeerTool(service)],
    routes: sessionRoutes(service),
    completions: {
      // Sessions with messages waiting first, then the most recently active.
      'sessions.id': (typed) =>
        service.store.ready()
          ? completeFrom(
              [...service.store.list()].sort((a, b) => Number(b.pending > 0) - Number(a.pending > 0) || b.updated_at.localeCompare(a.updated_at)).map((t) => ({ id: t.id, labels: [t.name] })),
              typed,
            )
          : [],
    },
    hubMethods: sessionHubMethods(service),
    counts: (): Record<string, number> => (service.store.ready() ? { sessions: service.store.list().length, session_messages_pending: service.store.totalPending() } : {}),
    start() {
      // A session's first MCP call of any kind marks it running, when the MCP layer announces
      // sessions carrying a task id (`mcp:session` { sessionId }); mailbox tools and the hook do it too.
      offMcpSession = ctx.events.on<{ sessionId?: string }>('mcp:session', (p) => {
        if (p?.sessionId) service.touch(p.sessionId);
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

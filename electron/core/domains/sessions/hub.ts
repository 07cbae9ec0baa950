import { invalidArgument } from '../../kernel/errors';
import type { HubMethodHandler } from '../../kernel/types';
import { HubMethod } from '../../../../shared/contract/hub';
import type { SessionService } from './service';

/**
 * SignalR dispatches by name only, so the seed's `SendTaskMessage(sessionId, body)` and the variant
 * with priority are one method: the optional third argument is "normal" | "high" or
 * `{ priority }`. Returns the new message id.
 */
export function sessionHubMethods(svc: SessionService): Record<string, HubMethodHandler> {
  return {
    [HubMethod.sendTaskMessage]: (_ctx, sessionId, body, options) => {
      if (typeof sessionId !== 'string' || sessionId === '') throw invalidArgument('SendTaskMessage(sessionId, body[, priority]): sessionId must be a non-empty string.');
      const priority = typeof options === 'object' && options !== null ? (options as { priority?: unknown }).priority : options;
      return svc.send(sessionId, body, priority, { kind: 'user' }).message_id;
    },
  };
}

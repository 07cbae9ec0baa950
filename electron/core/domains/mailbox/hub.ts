import { invalidArgument } from '../../kernel/errors';
import type { HubMethodHandler } from '../../kernel/types';
import { HubMethod } from '../../../../shared/contract/hub';
import type { MailboxService } from './service';

/**
 * SignalR dispatches by name only, so the seed's `SendTaskMessage(taskId, body)` and the variant
 * with priority are one method: the optional third argument is "normal" | "high" or
 * `{ priority }`. Returns the new message id.
 */
export function mailboxHubMethods(svc: MailboxService): Record<string, HubMethodHandler> {
  return {
    [HubMethod.sendTaskMessage]: (_ctx, taskId, body, options) => {
      if (typeof taskId !== 'string' || taskId === '') throw invalidArgument('SendTaskMessage(taskId, body[, priority]): taskId must be a non-empty string.');
      const priority = typeof options === 'object' && options !== null ? (options as { priority?: unknown }).priority : options;
      return svc.send(taskId, body, priority, { kind: 'user' }).message_id;
    },
  };
}

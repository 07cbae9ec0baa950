import type { ToolDef } from '../../../kernel/types';
import type { MailService } from '../service';
import { mailTool } from './common';

export const sendReplyTool = (mail: MailService): ToolDef =>
  mailTool<{ thread_id: string; body_or_draft_id: string; idempotency_key: string }>(mail, {
    name: 'send_reply',
    title: 'Send a reply',
    description:
      'Sends a reply to the thread through the inbox\'s SMTP server, with In-Reply-To/References set. body_or_draft_id is the reply text or a stored draft (its id, or its exact text). The same idempotency_key never sends twice, even across restarts; status is "sent", or "queued" while the outbox retries. A draft that needs approval fails with code approval_required until a person approves it on the Mail page.',
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
    handler: async (a) => ({ ...(await mail.sendReply(a)) }),
  });

import type { ToolDef } from '../../../kernel/types';
import type { MailService } from '../service';
import { mailTool } from './common';

export const triageMessageTool = (mail: MailService): ToolDef =>
  mailTool<{ message_id: string; taxonomy_id: string }>(mail, {
    name: 'triage_message',
    title: 'Triage a message',
    description:
      'Classifies a message with a taxonomy (vault file _brain_config/mail/taxonomies/<taxonomy_id>.yaml; "default" is built in): intent, urgency, sentiment, confidence and the suggested route ("vault:<folder>" or "route:<name>"). Labels the thread with the intent.',
    annotations: { idempotentHint: true },
    handler: async (a, ctx) => ({ ...(await mail.triageMessage(a, ctx.sample, ctx.signal)) }),
  });

import type { ToolDef } from '../../../kernel/types';
import type { MailService } from '../service';
import { mailTool } from './common';

export const extractToSchemaTool = (mail: MailService): ToolDef =>
  mailTool<{ message_id: string; schema_id: string }>(mail, {
    name: 'extract_to_schema',
    title: 'Extract data from a message',
    description:
      'Fills a JSON Schema (vault file _brain_config/mail/schemas/<schema_id>.json; "invoice", "meeting_request", "contact" are built in) from a message. Only values found in the message are returned; missing_fields and validation_errors say what is absent or invalid.',
    annotations: { readOnlyHint: true },
    handler: async (a, ctx) => ({ ...(await mail.extract(a, ctx.sample, ctx.signal)) }),
  });

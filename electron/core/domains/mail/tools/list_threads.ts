import type { ToolDef } from '../../../kernel/types';
import type { MailService } from '../service';
import type { ThreadStatus } from '../store';
import { mailTool } from './common';

export const listThreadsTool = (mail: MailService): ToolDef =>
  mailTool<{ inbox_id: string; status?: ThreadStatus; label?: string; updated_after?: string; limit?: number; cursor?: string }>(mail, {
    name: 'list_threads',
    title: 'List mail threads',
    description:
      'Threads of an inbox, newest first, filtered by status (open|closed|snoozed), label and updated_after. Up to `limit` (≤ 200) per page; pass `next_cursor` back as `cursor` for the next page (stable while new mail arrives).',
    annotations: { readOnlyHint: true },
    handler: (a) => mail.listThreads(a),
  });

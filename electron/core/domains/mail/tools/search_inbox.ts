import type { ToolDef } from '../../../kernel/types';
import type { MailService } from '../service';
import { mailTool } from './common';

export const searchInboxTool = (mail: MailService): ToolDef =>
  mailTool<{ inbox_id: string; query: string; top_k?: number; time_range?: { start?: string; end?: string } }>(mail, {
    name: 'search_inbox',
    title: 'Search an inbox',
    description: 'Full-text search (BM25 over subject, participants and text) in one inbox, optionally within time_range; returns messages with their thread, a score and a snippet.',
    annotations: { readOnlyHint: true },
    handler: (a) => mail.searchInbox(a),
  });

import type { ToolDef } from '../../../kernel/types';
import type { MailService } from '../service';
import { mailTool } from './common';

export const getThreadTool = (mail: MailService): ToolDef =>
  mailTool<{ thread_id: string; include_messages?: boolean }>(mail, {
    name: 'get_thread',
    title: 'Get a mail thread',
    description: 'One thread with its messages (text and sanitised HTML, oldest first). include_messages=false returns the thread only.',
    annotations: { readOnlyHint: true },
    handler: (a) => mail.getThread(a),
  });

import type { ToolDef } from '../../../kernel/types';
import type { MailService } from '../service';
import { mailTool } from './common';

export const draftReplyWithPolicyTool = (mail: MailService): ToolDef =>
  mailTool<{ thread_id: string; policy_id: string; goal: string }>(mail, {
    name: 'draft_reply_with_policy',
    title: 'Draft a reply under a policy',
    description:
      'Drafts a reply to the thread toward `goal`, constrained by a policy (vault file _brain_config/mail/policies/<policy_id>.md; "default" and "strict" are built in), then checks it: risk_flags name promises of money or dates, external recipients, a missing signature, excess length and broken rules. The draft is stored; send it with send_reply (pass the draft text as body_or_draft_id). Drafts with needs_human_approval are only sent after a person approves them on the Mail page.',
    handler: async (a, ctx) => {
      const d = await mail.draftReply(a, ctx.sample, ctx.signal);
      return { draft: d.body, risk_flags: d.risk_flags, cited_message_ids: d.cited_message_ids, needs_human_approval: d.needs_human_approval };
    },
  });

import { definePrompt, mustBeKnown, userText } from '../prompt';

export const triageMailPrompt = definePrompt({
  name: 'triage_mail',
  title: 'Triage my mail',
  description: 'Go through the open threads of one mail inbox by urgency and intent, suggest the next step for each, and draft replies; sends nothing without approval.',
  arguments: [{ name: 'inbox_id', description: 'The mail inbox to triage (completion lists the inboxes)', required: true, maxLength: 200, complete: 'mail.inbox' }],
  render: async (args, ctx) => {
    const id = args.inbox_id!;
    await mustBeKnown(ctx, 'mail.inbox', 'mail inbox', id);
    return {
      description: `Triage the open mail in ${id}`,
      messages: [
        userText(
          [
            `Triage the open mail in my Mailroom inbox \`${id}\` with me.`,
            '',
            `1. Call list_threads with inbox_id "${id}" and status "open".`,
            '2. Messages are triaged when they arrive (intent:* and urgency:* labels). Call get_thread for the threads that need a closer look, and triage_message only for a message that has no intent label yet.',
            '3. Show me the threads grouped by urgency: subject, sender, intent, a one-line summary and the next step you suggest (reply, save to the vault, close, nothing).',
            '4. Offer reply drafts with draft_reply_with_policy. Send nothing (send_reply) until I have approved the exact text.',
          ].join('\n'),
        ),
      ],
    };
  },
});

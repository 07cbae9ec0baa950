import { definePrompt, mustBeKnown, userText } from '../prompt';

export const sessionMessagesPrompt = definePrompt({
  name: 'session_messages',
  title: 'What is waiting for this session',
  description: "Read the messages other sessions or the person left for a session (check_inbox) and suggest what to do with each.",
  arguments: [{ name: 'task_id', description: "The session's id (default: this session's own MAILROOM_TASK_ID; completion lists the sessions)", maxLength: 200, complete: 'sessions.id' }],
  render: async (args, ctx) => {
    const id = args.task_id ?? ctx.sessionId;
    if (id) await mustBeKnown(ctx, 'sessions.id', 'session', id);
    const call = id ? `Call check_inbox with task_id "${id}".` : 'Call check_inbox (it reads the messages for this session).';
    return {
      description: id ? `Messages waiting for session ${id}` : 'Messages waiting for this session',
      messages: [
        userText(
          [
            `What is waiting for ${id ? `session \`${id}\`` : 'this session'} in Mailroom?`,
            '',
            `1. ${call}`,
            '2. Show me each message: who sent it, when, and what it asks.',
            '3. Suggest what to do with each; confirm with me before acting on a request or replying with send_to_task / send_to_peer.',
            '4. If nothing is waiting, just say so.',
          ].join('\n'),
        ),
      ],
    };
  },
});

import { definePrompt, userText } from '../prompt';

export const reviewInboxPrompt = definePrompt({
  name: 'review_inbox',
  title: 'Review my inbox',
  description: 'Analyze every item in the vault inbox, present the suggested filing, and apply only what the person approves (inbox_analyze → approval → inbox_execute).',
  arguments: [],
  render: async () => ({
    description: 'Review the Mailroom inbox with the person',
    messages: [
      userText(
        [
          'Review my Mailroom inbox (the inbox/ folder of my vault) with me.',
          '',
          '1. Call inbox_analyze (no arguments) to get a suggestion for every item.',
          '2. Show me the suggestions as a short table: item, action (move / merge / delete / keep), destination, confidence and a one-line reason. List the items in needs_review separately and ask me about each.',
          '3. Ask me which suggestions to apply; let me change a destination or skip an item.',
          '4. Only after I approve, call inbox_execute with exactly the approved actions. Never call inbox_execute without my explicit approval.',
          '5. Tell me the undo_id it returns: inbox_undo with that id restores everything the batch touched.',
        ].join('\n'),
      ),
    ],
  }),
});

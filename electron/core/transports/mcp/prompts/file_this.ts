import { definePrompt, userText } from '../prompt';

/** A single line ending in .md/.markdown/.txt is a vault path; anything else is text to capture. */
export const looksLikeNotePath = (s: string): boolean => !/[\r\n]/.test(s) && s.trim().length <= 1000 && /\.(md|markdown|txt)$/i.test(s.trim());

export const fileThisPrompt = definePrompt({
  name: 'file_this',
  title: 'File this',
  description: 'Capture a text into the vault inbox (or take a note already there) and suggest where it belongs; files it only after the person approves.',
  arguments: [{ name: 'item', description: 'The text to capture, or the vault-relative path of a note (e.g. inbox/idea.md)', required: true, maxLength: 200_000, complete: 'vault.inbox_note' }],
  render: async (args) => {
    const item = args.item!;
    const approve = 'Show me the suggested action with its confidence and reasoning, and call inbox_execute only after I approve it (tell me the undo_id).';
    if (looksLikeNotePath(item)) {
      const p = item.trim();
      return {
        description: `File the note ${p}`,
        messages: [
          userText(
            [
              `File the note at \`${p}\` in my vault.`,
              '',
              `1. If it is in inbox/, call inbox_analyze with paths: ["${p}"].`,
              '2. If it is elsewhere, it is already filed: read it with brain_read_note and tell me where it is instead.',
              `3. ${approve}`,
            ].join('\n'),
          ),
        ],
      };
    }
    return {
      description: 'Capture a text and suggest where it belongs',
      messages: [
        userText(
          [
            'Capture the text below into my Mailroom inbox and suggest where it belongs.',
            '',
            '1. Call brain_inbox_save with the text as content (give it a short title, and processing_hints when the category or tags are obvious).',
            '2. Call inbox_analyze with paths: [the path brain_inbox_save returned].',
            `3. ${approve}`,
            '',
            '--- text ---',
            item,
          ].join('\n'),
        ),
      ],
    };
  },
});

import { cliCall, defineCommand, defineGroup, type CliCommandDef } from '../../kernel/cli';
import { inboxRoutes } from '../../../../shared/contract/inbox';

/** `mailroom inbox examples [--jsonl]`: the labelled examples learnt from review; a thin call to /api/inbox/examples. */
export const inboxCommands: CliCommandDef[] = [
  defineGroup(['inbox'], 'the vault inbox: what Mailroom learnt from your filing decisions'),
  defineCommand<{ jsonl?: boolean }>({
    path: ['inbox', 'examples'],
    description: 'list the labelled examples kept from review (accepts, edits, deletes, merges, skips)',
    options: [{ flags: '--jsonl', description: 'one JSON object per line (the same as GET /api/inbox/examples.jsonl)' }],
    async run(rt, _args, o) {
      const r = await cliCall(rt, inboxRoutes.examples, {});
      if (o.jsonl) {
        if (r.examples.length) rt.out(r.examples.map((e) => JSON.stringify(e)).join('\n'));
        return;
      }
      if (!r.examples.length) {
        rt.out('No examples yet: decisions made in the Inbox page or through inbox_execute are kept here.');
        return;
      }
      for (const e of r.examples) rt.out(`${e.created_at.slice(0, 10)}  ${(e.label ?? '').padEnd(28)}  ${e.edited ? 'edited ' : 'accepted'}  ${e.title}`);
      rt.out(`${r.count} example${r.count === 1 ? '' : 's'}.`);
    },
  }),
];

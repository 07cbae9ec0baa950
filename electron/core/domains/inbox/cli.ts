import type { Command } from 'commander';
import type { CliRuntime } from '../../entry/cli-runtime';

const withDirs = <C extends Command>(cmd: C): C =>
  cmd.option('--vault <dir>', 'the markdown vault (env MAILROOM_VAULT)').option('--data-dir <dir>', 'where Mailroom keeps its state (env MAILROOM_DATA_DIR)');

interface ExportRow {
  path: string;
  title: string;
  label: string | null;
  edited: boolean;
  suggested_destination: string | null;
  created_at: string;
}

/** `mailroom inbox examples [--jsonl]`: the labelled examples learnt from review; a thin call to /api/inbox/examples. */
export function registerInboxCommands(program: Command, rt: CliRuntime): void {
  const inbox = program.command('inbox').description('the vault inbox: what Mailroom learnt from your filing decisions');
  withDirs(inbox.command('examples'))
    .description('list the labelled examples kept from review (accepts, edits, deletes, merges, skips)')
    .option('--jsonl', 'one JSON object per line (the same as GET /api/inbox/examples.jsonl)')
    .action(async (o: { jsonl?: boolean }) => {
      const r = await rt.call<{ count: number; examples: ExportRow[] }>('GET', '/api/inbox/examples');
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
    });
}

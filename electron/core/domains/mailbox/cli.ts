import path from 'node:path';
import type { Command } from 'commander';
import type { CliRuntime } from '../../entry/cli-runtime';
import { invalidArgument } from '../../kernel/errors';
import type { MessagePriority, TaskDto } from '../../../../shared/mailbox';

interface UninstallSummary {
  removed: string;
  restored: string[];
  merged: string[];
  skipped: Array<{ file: string; reason: string }>;
}

const withDirs = <C extends Command>(cmd: C): C =>
  cmd.option('--vault <dir>', 'the markdown vault (env MAILROOM_VAULT)').option('--data-dir <dir>', 'where Mailroom keeps its state (env MAILROOM_DATA_DIR)');

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n');
}

async function readStdin(): Promise<string> {
  let data = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) data += chunk as string;
  return data;
}

/** `mailroom session add|list|remove|done` and `mailroom send`: thin calls to the sessions API. */
export function registerMailboxCommands(program: Command, rt: CliRuntime): void {
  const session = program.command('session').description('session mailboxes: push messages into running Claude Code sessions');

  withDirs(session.command('add'))
    .description('create a session and install its mailbox (CLAUDE.md addendum, hook, .mcp.json) into a working folder')
    .requiredOption('--name <name>', 'a name people recognise (e.g. backend)')
    .requiredOption('--dir <path>', 'the working folder Claude Code runs in')
    .option('--peer <id>', 'link it to another session, so send_to_peer reaches it')
    .option('--json', 'print the session as JSON')
    .action(async (o: { name: string; dir: string; peer?: string; json?: boolean }) => {
      const t = await rt.call<TaskDto>('POST', '/api/sessions', { name: o.name, working_dir: path.resolve(o.dir), ...(o.peer ? { peer: o.peer } : {}) });
      if (o.json) return rt.out(JSON.stringify(t));
      rt.out(
        [
          `Created session ${t.id} "${t.name}" in ${t.working_dir}${t.peers.length ? ` (peer: ${t.peers.join(', ')})` : ''}.`,
          '  merged: CLAUDE.md (mailbox addendum), .claude/settings.json (PostToolUse hook), .mcp.json ("mailroom" with MAILROOM_TASK_ID)',
          `  Start Claude Code in that folder; send it messages with: mailroom send --task ${t.id} "…"`,
        ].join('\n'),
      );
    });

  withDirs(session.command('list'))
    .description('every session with its status and pending messages')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const list = await rt.call<TaskDto[]>('GET', '/api/sessions');
      if (o.json) return rt.out(JSON.stringify(list));
      if (list.length === 0) return rt.out('No sessions yet. Create one with: mailroom session add --name NAME --dir PATH');
      rt.out(table([['ID', 'STATUS', 'PENDING', 'NAME', 'FOLDER'], ...list.map((t) => [t.id, t.status, String(t.pending), t.name, t.working_dir])]));
    });

  withDirs(session.command('remove'))
    .description('remove a session: restores CLAUDE.md, .claude/settings.json and .mcp.json in its folder, forgets its messages')
    .argument('<id>', 'session id')
    .action(async (id: string) => {
      const r = await rt.call<UninstallSummary>('DELETE', `/api/sessions/${encodeURIComponent(id)}`);
      const parts = [`Removed session ${r.removed}.`];
      if (r.restored.length) parts.push(`  restored to their original bytes: ${r.restored.join(', ')}`);
      if (r.merged.length) parts.push(`  edited since install, only the mailbox part taken out: ${r.merged.join(', ')}`);
      for (const s of r.skipped) parts.push(`  left alone: ${s.file} (${s.reason})`);
      rt.out(parts.join('\n'));
    });

  withDirs(session.command('done'))
    .description('mark a session done')
    .argument('<id>', 'session id')
    .action(async (id: string) => {
      const t = await rt.call<TaskDto>('POST', `/api/sessions/${encodeURIComponent(id)}/done`);
      rt.out(`Session ${t.id} "${t.name}" is done${t.pending ? ` (${t.pending} messages were never picked up)` : ''}.`);
    });

  withDirs(program.command('send'))
    .description('leave a message in a session\'s mailbox (body "-" reads stdin)')
    .requiredOption('--task <id>', 'the receiving session')
    .option('--priority <p>', 'normal or high', 'normal')
    .argument('<body...>', 'the message (markdown)')
    .action(async (words: string[], o: { task: string; priority: string }) => {
      if (o.priority !== 'normal' && o.priority !== 'high') throw invalidArgument(`--priority must be normal or high, got "${o.priority}".`);
      const body = words.length === 1 && words[0] === '-' ? await readStdin() : words.join(' ');
      const r = await rt.call<{ message_id: number; pending: number }>('POST', `/api/sessions/${encodeURIComponent(o.task)}/messages`, {
        body,
        priority: o.priority as MessagePriority,
      });
      rt.out(`Queued message ${r.message_id} for ${o.task} (${r.pending} pending).`);
    });
}

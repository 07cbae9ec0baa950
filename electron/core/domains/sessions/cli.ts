import path from 'node:path';
import { cliCall, defineCommand, defineGroup, type CliCommandDef } from '../../kernel/cli';
import { invalidArgument } from '../../kernel/errors';
import { sessionRoutes, type MessagePriority } from '../../../../shared/contract/sessions';

function table(rows: string[][]): string {
  const [head = []] = rows;
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')).join('\n');
}

async function readStdin(): Promise<string> {
  let data = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) data += chunk as string;
  return data;
}

/** `mailroom session add|list|remove|done` and `mailroom send`: thin calls to the sessions API. */
export const sessionCommands: CliCommandDef[] = [
  defineGroup(['session'], 'session mailboxes: push messages into running Claude Code sessions'),
  defineCommand<{ name: string; dir: string; peer?: string; json?: boolean }>({
    path: ['session', 'add'],
    description: 'create a session and install its mailbox (CLAUDE.md addendum, hook, .mcp.json) into a working folder',
    options: [
      { flags: '--name <name>', description: 'a name people recognise (e.g. backend)', required: true },
      { flags: '--dir <path>', description: 'the working folder Claude Code runs in', required: true },
      { flags: '--peer <id>', description: 'link it to another session, so send_to_peer reaches it' },
      { flags: '--json', description: 'print the session as JSON' },
    ],
    async run(rt, _args, o) {
      const t = await cliCall(rt, sessionRoutes.create, { body: { name: o.name, working_dir: path.resolve(o.dir), ...(o.peer ? { peer: o.peer } : {}) } });
      if (o.json) return rt.out(JSON.stringify(t));
      rt.out(
        [
          `Created session ${t.id} "${t.name}" in ${t.working_dir}${t.peers.length ? ` (peer: ${t.peers.join(', ')})` : ''}.`,
          '  merged: CLAUDE.md (mailbox addendum), .claude/settings.json (PostToolUse hook), .mcp.json ("mailroom" with MAILROOM_TASK_ID)',
          `  Start Claude Code in that folder; send it messages with: mailroom send --task ${t.id} "…"`,
        ].join('\n'),
      );
    },
  }),
  defineCommand<{ json?: boolean }>({
    path: ['session', 'list'],
    description: 'every session with its status and pending messages',
    options: [{ flags: '--json', description: 'print JSON' }],
    async run(rt, _args, o) {
      const list = await cliCall(rt, sessionRoutes.list, {});
      if (o.json) return rt.out(JSON.stringify(list));
      if (list.length === 0) return rt.out('No sessions yet. Create one with: mailroom session add --name NAME --dir PATH');
      rt.out(table([['ID', 'STATUS', 'PENDING', 'NAME', 'FOLDER'], ...list.map((t) => [t.id, t.status, String(t.pending), t.name, t.working_dir])]));
    },
  }),
  defineCommand({
    path: ['session', 'remove'],
    description: 'remove a session: restores CLAUDE.md, .claude/settings.json and .mcp.json in its folder, forgets its messages',
    arguments: [{ name: '<id>', description: 'session id' }],
    async run(rt, [id = '']) {
      const r = await cliCall(rt, sessionRoutes.remove, { params: { id } });
      const parts = [`Removed session ${r.removed}.`];
      if (r.restored.length) parts.push(`  restored to their original bytes: ${r.restored.join(', ')}`);
      if (r.merged.length) parts.push(`  edited since install, only the mailbox part taken out: ${r.merged.join(', ')}`);
      for (const s of r.skipped) parts.push(`  left alone: ${s.file} (${s.reason})`);
      rt.out(parts.join('\n'));
    },
  }),
  defineCommand({
    path: ['session', 'done'],
    description: 'mark a session done',
    arguments: [{ name: '<id>', description: 'session id' }],
    async run(rt, [id = '']) {
      const t = await cliCall(rt, sessionRoutes.done, { params: { id } });
      rt.out(`Session ${t.id} "${t.name}" is done${t.pending ? ` (${t.pending} messages were never picked up)` : ''}.`);
    },
  }),
  defineCommand<{ task: string; priority: string }>({
    path: ['send'],
    description: 'leave a message in a session\'s mailbox (body "-" reads stdin)',
    options: [
      { flags: '--task <id>', description: 'the receiving session', required: true },
      { flags: '--priority <p>', description: 'normal or high', default: 'normal' },
    ],
    arguments: [{ name: '<body...>', description: 'the message (markdown)' }],
    async run(rt, words, o) {
      if (o.priority !== 'normal' && o.priority !== 'high') throw invalidArgument(`--priority must be normal or high, got "${o.priority}".`);
      const priority: MessagePriority = o.priority;
      const body = words.length === 1 && words[0] === '-' ? await readStdin() : words.join(' ');
      const r = await cliCall(rt, sessionRoutes.send, { params: { id: o.task }, body: { body, priority } });
      rt.out(`Queued message ${r.message_id} for ${o.task} (${r.pending} pending).`);
    },
  }),
];

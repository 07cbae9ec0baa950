import path from 'node:path';
import type { Command } from 'commander';
import type { CliRuntime } from '../../entry/cli-runtime';
import { MailroomError } from '../../kernel/errors';
import type { ImportReport } from './ingest';

const withDirs = <C extends Command>(cmd: C): C =>
  cmd.option('--vault <dir>', 'the markdown vault (env MAILROOM_VAULT)').option('--data-dir <dir>', 'where Mailroom keeps its state (env MAILROOM_DATA_DIR)');

interface InboxView {
  id: string;
  address: string;
  status: string;
  unread: number;
  threads: number;
}

/** `mailroom mail …`: import mail files, manage inboxes, search — thin calls to /api/mail. */
export function registerMailCommands(program: Command, rt: CliRuntime): void {
  const mail = program.command('mail').description('NeuralMail: local mail store (import, inboxes, search)');

  withDirs(mail.command('import'))
    .description('import an mbox file, an .eml file, a Maildir or a folder of these into an inbox (re-importing never duplicates)')
    .argument('<path>', 'mbox / .eml / Maildir / folder')
    .requiredOption('--inbox <id>', 'inbox id or address')
    .option('--create', 'create the inbox first when --inbox is an address that has none')
    .option('--json', 'print the import report as JSON')
    .action(async (p: string, o: { inbox: string; create?: boolean; json?: boolean }) => {
      if (o.create) {
        const all = await rt.call<InboxView[]>('GET', '/api/mail/inboxes');
        if (!all.some((i) => i.id === o.inbox || i.address.toLowerCase() === o.inbox.toLowerCase())) {
          if (!o.inbox.includes('@')) throw new MailroomError('invalid_argument', '--create needs --inbox to be an email address.');
          await rt.call('POST', '/api/mail/inboxes', { address: o.inbox });
        }
      }
      const r = await rt.call<ImportReport>('POST', '/api/mail/import-path', { inbox: o.inbox, path: path.resolve(p) });
      if (o.json) return rt.out(JSON.stringify({ ...r, message_ids: undefined }, null, 2));
      rt.out(`Imported ${r.imported} of ${r.total} messages into ${r.inbox_id} (${r.duplicates} already there, ${r.failed.length} failed) in ${r.thread_ids.length} threads.`);
      for (const f of r.failed.slice(0, 20)) rt.err(`  could not import ${f.source}: ${f.error}`);
    });

  withDirs(mail.command('inboxes'))
    .description('list inboxes with unread counts')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const all = await rt.call<InboxView[]>('GET', '/api/mail/inboxes');
      if (o.json) return rt.out(JSON.stringify(all, null, 2));
      if (all.length === 0) return rt.out('No inboxes yet. Add one: mailroom mail inbox-add ADDRESS');
      for (const i of all) rt.out(`${i.id}  ${i.address}  ${i.status}  ${i.threads} threads, ${i.unread} unread`);
    });

  withDirs(mail.command('inbox-add'))
    .description('create an inbox for an address')
    .argument('<address>', 'email address')
    .option('--id <id>', 'a short id (default: generated)')
    .option('--name <name>', 'display name used as the sender name')
    .action(async (address: string, o: { id?: string; name?: string }) => {
      const ib = await rt.call<InboxView>('POST', '/api/mail/inboxes', { address, ...(o.id ? { id: o.id } : {}), ...(o.name ? { name: o.name } : {}) });
      rt.out(`Created inbox ${ib.id} (${ib.address}).`);
    });

  withDirs(mail.command('search'))
    .description('full-text search in an inbox')
    .argument('<query...>', 'words to find')
    .requiredOption('--inbox <id>', 'inbox id')
    .option('--json', 'print JSON')
    .action(async (q: string[], o: { inbox: string; json?: boolean }) => {
      const r = await rt.call<{ results: Array<{ message_id: string; thread_id: string; score: number; snippet?: string; subject: string }> }>(
        'GET',
        `/api/mail/search?inbox=${encodeURIComponent(o.inbox)}&q=${encodeURIComponent(q.join(' '))}`,
      );
      if (o.json) return rt.out(JSON.stringify(r, null, 2));
      if (r.results.length === 0) return rt.out('No matches.');
      for (const h of r.results) rt.out(`${h.score.toFixed(2)}  ${h.subject}  (${h.thread_id})\n      ${h.snippet ?? ''}`);
    });

  withDirs(mail.command('install-defaults'))
    .description('copy the built-in triage taxonomy, extraction schemas and reply policies into the vault for editing')
    .action(async () => {
      const r = await rt.call<{ written: string[] }>('POST', '/api/mail/config/install-defaults');
      rt.out(r.written.length ? `Wrote:\n${r.written.map((w) => `  ${w}`).join('\n')}` : 'All default files already exist in the vault.');
    });
}

import path from 'node:path';
import { cliCall, defineCommand, defineGroup, type CliCommandDef } from '../../kernel/cli';
import { mailRoutes } from '../../../../shared/contract/mail';
import { MailroomError } from '../../kernel/errors';

/** `mailroom mail …`: import mail files, manage inboxes, search — thin calls to /api/mail. */
export const mailCommands: CliCommandDef[] = [
  defineGroup(['mail'], 'NeuralMail: local mail store (import, inboxes, search)'),
  defineCommand<{ inbox: string; create?: boolean; json?: boolean }>({
    path: ['mail', 'import'],
    description: 'import an mbox file, an .eml file, a Maildir or a folder of these into an inbox (re-importing never duplicates)',
    arguments: [{ name: '<path>', description: 'mbox / .eml / Maildir / folder' }],
    options: [
      { flags: '--inbox <id>', description: 'inbox id or address', required: true },
      { flags: '--create', description: 'create the inbox first when --inbox is an address that has none' },
      { flags: '--json', description: 'print the import report as JSON' },
    ],
    async run(rt, [p = ''], o) {
      if (o.create) {
        const all = await cliCall(rt, mailRoutes.inboxes, {});
        if (!all.some((i) => i.id === o.inbox || i.address.toLowerCase() === o.inbox.toLowerCase())) {
          if (!o.inbox.includes('@')) throw new MailroomError('invalid_argument', '--create needs --inbox to be an email address.');
          await cliCall(rt, mailRoutes.createInbox, { body: { address: o.inbox } });
        }
      }
      const r = await cliCall(rt, mailRoutes.importPath, { body: { inbox: o.inbox, path: path.resolve(p) } });
      if (o.json) return rt.out(JSON.stringify({ ...r, message_ids: undefined }, null, 2));
      rt.out(`Imported ${r.imported} of ${r.total} messages into ${r.inbox_id} (${r.duplicates} already there, ${r.failed.length} failed) in ${r.thread_ids.length} threads.`);
      for (const f of r.failed.slice(0, 20)) rt.err(`  could not import ${f.source}: ${f.error}`);
    },
  }),
  defineCommand<{ json?: boolean }>({
    path: ['mail', 'inboxes'],
    description: 'list inboxes with unread counts',
    options: [{ flags: '--json', description: 'print JSON' }],
    async run(rt, _args, o) {
      const all = await cliCall(rt, mailRoutes.inboxes, {});
      if (o.json) return rt.out(JSON.stringify(all, null, 2));
      if (all.length === 0) return rt.out('No inboxes yet. Add one: mailroom mail inbox-add ADDRESS');
      for (const i of all) rt.out(`${i.id}  ${i.address}  ${i.status}  ${i.threads} threads, ${i.unread} unread`);
    },
  }),
  defineCommand<{ id?: string; name?: string }>({
    path: ['mail', 'inbox-add'],
    description: 'create an inbox for an address',
    arguments: [{ name: '<address>', description: 'email address' }],
    options: [
      { flags: '--id <id>', description: 'a short id (default: generated)' },
      { flags: '--name <name>', description: 'display name used as the sender name' },
    ],
    async run(rt, [address = ''], o) {
      const ib = await cliCall(rt, mailRoutes.createInbox, { body: { address, ...(o.id ? { id: o.id } : {}), ...(o.name ? { name: o.name } : {}) } });
      rt.out(`Created inbox ${ib.id} (${ib.address}).`);
    },
  }),
  defineCommand<{ inbox: string; json?: boolean }>({
    path: ['mail', 'search'],
    description: 'full-text search in an inbox',
    arguments: [{ name: '<query...>', description: 'words to find' }],
    options: [
      { flags: '--inbox <id>', description: 'inbox id', required: true },
      { flags: '--json', description: 'print JSON' },
    ],
    async run(rt, q, o) {
      const r = await cliCall(rt, mailRoutes.search, { query: { inbox: o.inbox, q: q.join(' ') } });
      if (o.json) return rt.out(JSON.stringify(r, null, 2));
      if (r.results.length === 0) return rt.out('No matches.');
      for (const h of r.results) rt.out(`${h.score.toFixed(2)}  ${h.subject}  (${h.thread_id})\n      ${h.snippet ?? ''}`);
    },
  }),
  defineCommand({
    path: ['mail', 'install-defaults'],
    description: 'copy the built-in triage taxonomy, extraction schemas and reply policies into the vault for editing',
    async run(rt) {
      const r = await cliCall(rt, mailRoutes.installDefaults, {});
      rt.out(r.written.length ? `Wrote:\n${r.written.map((w) => `  ${w}`).join('\n')}` : 'All default files already exist in the vault.');
    },
  }),
];

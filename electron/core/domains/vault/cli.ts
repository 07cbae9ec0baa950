import { cliCall, defineCommand, type CliCommandDef } from '../../kernel/cli';
import { vaultRoutes } from '../../../../shared/contract/vault';

/** `mailroom reindex`: rebuild the vault index (index.db) from the notes; a thin call to /api/vault/reindex. */
export const vaultCommands: CliCommandDef[] = [
  defineCommand<{ changed?: boolean; json?: boolean }>({
    path: ['reindex'],
    description: 'rebuild the vault index from the markdown files (search, links, aliases, entities)',
    options: [
      { flags: '--changed', description: 'only re-read files whose mtime/size changed (what start-up does)' },
      { flags: '--json', description: 'print the report as JSON' },
    ],
    async run(rt, _args, o) {
      const r = await cliCall(rt, vaultRoutes.reindex, { body: { full: !o.changed } });
      rt.out(o.json ? JSON.stringify(r) : `Indexed ${r.indexed} of ${r.scanned} notes (${r.unchanged} unchanged, ${r.removed} removed) in ${r.ms} ms.`);
    },
  }),
];

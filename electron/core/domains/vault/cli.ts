import type { Command } from 'commander';
import type { CliRuntime } from '../../entry/cli-runtime';

const withDirs = <C extends Command>(cmd: C): C =>
  cmd.option('--vault <dir>', 'the markdown vault (env MAILROOM_VAULT)').option('--data-dir <dir>', 'where Mailroom keeps its state (env MAILROOM_DATA_DIR)');

interface ReindexReport {
  scanned: number;
  indexed: number;
  unchanged: number;
  removed: number;
  ms: number;
}

/** `mailroom reindex`: rebuild the vault index (index.db) from the notes; a thin call to /api/vault/reindex. */
export function registerVaultCommands(program: Command, rt: CliRuntime): void {
  withDirs(program.command('reindex'))
    .description('rebuild the vault index from the markdown files (search, links, aliases, entities)')
    .option('--changed', 'only re-read files whose mtime/size changed (what start-up does)')
    .option('--json', 'print the report as JSON')
    .action(async (o: { changed?: boolean; json?: boolean }) => {
      const r = await rt.call<ReindexReport>('POST', '/api/vault/reindex', { full: !o.changed });
      rt.out(o.json ? JSON.stringify(r) : `Indexed ${r.indexed} of ${r.scanned} notes (${r.unchanged} unchanged, ${r.removed} removed) in ${r.ms} ms.`);
    });
}

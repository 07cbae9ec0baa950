import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { Command, CommanderError, Option } from 'commander';
import { resolveConfig, VERSION, type Config } from '../host/config';
import { findOwner, readLock } from '../host/lock';
import { claudeDesktopConfigPath, connectClaudeCode, connectClaudeDesktop, connectSnippet } from '../host/connect';
import { MailroomError } from '../kernel/errors';
import { openInBrowser } from '../host/browser';
import { createCliRuntime } from './cli-runtime';
import type { CliCommandDef, CliRuntime } from '../kernel/cli';
import { callRoute, routes, type Requester } from '../../../shared/contract';
import { runHeadless } from './headless';
import { runMcpStdio } from './mcp-stdio';
// [cli] domain command definitions (data)
import { sessionCommands } from '../domains/sessions';
import { mailCommands } from '../domains/mail';
import { vaultCommands } from '../domains/vault';
import { inboxCommands } from '../domains/inbox';

const domainCommands: readonly CliCommandDef[] = [...sessionCommands, ...mailCommands, ...vaultCommands, ...inboxCommands];

interface CommonOpts {
  vault?: string;
  dataDir?: string;
  port?: string;
}

const common = <C extends Command>(cmd: C): C =>
  cmd
    .option('--vault <dir>', 'the markdown vault (env MAILROOM_VAULT)')
    .option('--data-dir <dir>', 'where Mailroom keeps its state (env MAILROOM_DATA_DIR)');

function configFrom(opts: CommonOpts): Config {
  return resolveConfig({ vault: opts.vault, dataDir: opts.dataDir, port: opts.port });
}

/** The Electron binary, if this install has one (its download is optional). */
function electronBinary(): string | undefined {
  try {
    const req = createRequire(import.meta.url);
    const p = req('electron') as unknown;
    return typeof p === 'string' && fs.existsSync(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

/** Turns one command definition (data from a domain) into a commander command under `program`. */
function addCommand(program: Command, def: CliCommandDef, rt: CliRuntime): void {
  let parent = program;
  for (const word of def.path.slice(0, -1)) {
    const group = parent.commands.find((c) => c.name() === word);
    if (!group) throw new Error(`CLI command ${def.path.join(' ')}: define the group "${word}" before it.`);
    parent = group;
  }
  const cmd = parent.command(def.path[def.path.length - 1] ?? '').description(def.description);
  if (def.dirs ?? def.run !== undefined) common(cmd);
  for (const a of def.arguments ?? []) cmd.argument(a.name, a.description);
  for (const o of def.options ?? []) {
    if (o.required) cmd.requiredOption(o.flags, o.description, o.default);
    else cmd.option(o.flags, o.description, o.default);
  }
  const run = def.run;
  if (run) {
    cmd.action(async (...params: unknown[]) => {
      // commander passes the positional arguments, then the options, then the command.
      const positional = params.slice(0, def.arguments?.length ?? 0).flatMap((p) => (Array.isArray(p) ? p.map(String) : p === undefined ? [] : [String(p)]));
      await run(rt, positional, cmd.opts());
    });
  }
}

/**
 * The whole command tree. Domain commands get one runtime whose config follows the running
 * command's --vault/--data-dir (global options, accepted before or after the subcommand).
 */
export function buildProgram(rt: CliRuntime, setOpts: (opts: CommonOpts, cmd: Command) => void): Command {
  const program = common(new Command('mailroom'))
    .description('Mailroom — the local inbox for your second brain (tray app + MCP bridge).')
    .version(VERSION)
    .showHelpAfterError(true)
    .exitOverride();
  program.hook('preAction', (_this, action) => setOpts(action.optsWithGlobals() as CommonOpts, action));

  common(program.command('start'))
    .description('start Mailroom: the tray app where Electron can run, else the headless owner')
    .addOption(new Option('--port <n>', 'port on 127.0.0.1 (env MAILROOM_PORT; 0 = any free port)'))
    .option('--headless', 'serve the UI on 127.0.0.1 instead of opening the tray app')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as CommonOpts & { headless?: boolean };
      const config = configFrom(opts);
      const bin = opts.headless ? undefined : electronBinary();
      const mainJs = path.join(config.appRoot, 'out', 'main', 'index.js');
      if (bin && fs.existsSync(mainJs) && process.env.MAILROOM_FORCE_HEADLESS !== '1') {
        const args = [mainJs, ...(opts.vault ? ['--vault', opts.vault] : []), ...(opts.dataDir ? ['--data-dir', opts.dataDir] : []), ...(opts.port ? ['--port', opts.port] : [])];
        const child = spawn(bin, args, { stdio: 'inherit' });
        child.on('exit', (code) => process.exit(code ?? 0));
        return;
      }
      if (!opts.headless) process.stderr.write('Electron is not available here; starting the headless owner (--headless).\n');
      const owner = await runHeadless(config);
      if (!owner) process.exit(0);
    });

  common(program.command('mcp'))
    .description('MCP over stdio for Claude Desktop / Claude Code (forwards to the running owner, or becomes it)')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as CommonOpts;
      await runMcpStdio(configFrom(opts));
    });

  common(program.command('status'))
    .description('is an owner running for this data dir, and where')
    .option('--json', 'print JSON')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as CommonOpts & { json?: boolean };
      const config = configFrom(opts);
      const owner = await findOwner(config.dataDir, 1_000);
      if (!owner) {
        const lock = readLock(config.dataDir);
        const line = lock ? `Mailroom is not running for ${config.dataDir} (stale lock from pid ${lock.pid}).` : `Mailroom is not running for ${config.dataDir}.`;
        process.stdout.write(opts.json ? JSON.stringify({ running: false, data_dir: config.dataDir }) + '\n' : line + '\n');
        process.exitCode = 1;
        return;
      }
      const get: Requester = async (method, route) => (await fetch(owner.url + route, { method, headers: { authorization: `Bearer ${owner.token}` } })).json();
      const health = await callRoute(get, routes.core.health, {});
      const st = await callRoute(get, routes.core.status, {}).catch(() => undefined);
      // The owner knows whether it fell back from its usual port (flags of its own start are not ours).
      const note = (await callRoute(get, routes.settings.get, {}).catch(() => undefined))?.address?.note ?? null;
      if (opts.json) {
        process.stdout.write(JSON.stringify({ running: true, pid: owner.pid, port: owner.port, url: `${owner.url}/?token=${owner.token}`, data_dir: config.dataDir, ...health, ...(st ? { index: st.index } : {}), port_note: note }) + '\n');
      } else {
        const n = (x: number) => x.toLocaleString('en');
        const idx = st?.index;
        const line = !idx ? 'unknown' : idx.state === 'ready' ? `ready (${n(idx.total)} notes)` : idx.state === 'failed' ? `failed: ${idx.error ?? ''}` : `indexing ${n(idx.done)} / ${n(idx.total)}`;
        process.stdout.write(
          [
            `Mailroom ${health.version} is running (pid ${owner.pid}).`,
            `  UI:    ${owner.url}/?token=${owner.token}`,
            `  vault: ${health.vault}`,
            `  index: ${line}`,
            `  data:  ${config.dataDir}`,
            `  up:    ${health.uptime_s}s`,
            ...(note ? [`  note:  ${note}`] : []),
            'Open it in your browser with: mailroom open',
          ].join('\n') + '\n',
        );
      }
    });

  common(program.command('open'))
    .description('open the Mailroom UI in your default browser (prints the link where there is no browser)')
    .option('--print', 'print the link instead of opening a browser')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as CommonOpts & { print?: boolean };
      const config = configFrom(opts);
      const owner = await findOwner(config.dataDir, 2_000);
      if (!owner) {
        process.stderr.write(`Mailroom is not running for ${config.dataDir}. Start it with \`npm start\` (or \`mailroom start\`), then run \`mailroom open\` again.\n`);
        process.exitCode = 1;
        return;
      }
      const link = `${owner.url}/?token=${owner.token}`;
      if (opts.print) {
        process.stdout.write(link + '\n');
        return;
      }
      const r = await openInBrowser(link);
      process.stdout.write(r.opened ? `Opened ${owner.url} in your browser.\n` : `Could not open a browser here (${r.why}). Open this link yourself:\n  ${link}\n`);
    });

  const connect = program.command('connect').description('connect Claude Desktop or Claude Code to Mailroom');
  common(connect.command('claude-desktop'))
    .description("merge a mailroom entry into Claude Desktop's config (backup first)")
    .option('--config <path>', `config file (default ${claudeDesktopConfigPath()})`)
    .option('--print', 'print the entry instead of writing it')
    .action((_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as CommonOpts & { config?: string; print?: boolean };
      const config = configFrom(opts);
      if (opts.print) {
        process.stdout.write(connectSnippet(config).snippet + '\n');
        return;
      }
      const r = connectClaudeDesktop(config, opts.config ? path.resolve(opts.config) : undefined);
      process.stdout.write(
        r.changed
          ? `Added "mailroom" to ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}. Restart Claude Desktop to load it.\n`
          : `${r.file} already has this "mailroom" entry; nothing changed.\n`,
      );
    });
  common(connect.command('claude-code'))
    .description('print the .mcp.json entry for Claude Code, or write it into a project with --write')
    .option('--write <dir>', 'merge the entry into <dir>/.mcp.json (backup first)')
    .action((_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals() as CommonOpts & { write?: string };
      const config = configFrom(opts);
      if (!opts.write) {
        process.stdout.write(connectSnippet(config).claude_code_snippet + '\n');
        return;
      }
      const dir = path.resolve(opts.write);
      if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new MailroomError('invalid_argument', `--write: ${dir} is not a folder.`);
      const r = connectClaudeCode(config, dir);
      process.stdout.write(r.changed ? `Added "mailroom" to ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}.\n` : `${r.file} already has this entry; nothing changed.\n`);
    });

  // [cli] domain commands
  for (const def of domainCommands) addCommand(program, def, rt);
  return program;
}

/** Runs the CLI; returns the exit code (2 for argument errors, as the usage says). */
export async function main(argv: string[]): Promise<number> {
  let current: CommonOpts = {};
  let running: Command | undefined;
  const rt = createCliRuntime(() => configFrom(current));
  const program = buildProgram(rt, (o, cmd) => {
    current = o;
    running = cmd;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2;
    }
    if (e instanceof MailroomError) {
      process.stderr.write(`mailroom: ${e.message}\n`);
      if (e.code === 'invalid_argument') {
        process.stderr.write(`\n${(running ?? program).helpInformation()}`);
        return 2;
      }
      return 1;
    }
    process.stderr.write(`mailroom: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  } finally {
    await rt.close().catch(() => undefined);
  }
}

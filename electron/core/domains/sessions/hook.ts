import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { pathOf } from '../../../../shared/contract/route';

/**
 * The contract's `routes.sessions.touch`, named here so the hook need not load zod (it must stay
 * fast); tests/unit/arch/routes.test.ts checks it is the table's route.
 */
export const TOUCH_ROUTE = { method: 'POST', path: '/api/sessions/:id/touch' } as const;

/**
 * `mailroom hook inbox-status --task ID [--data-dir DIR]`: what Claude Code runs after each tool
 * call (PostToolUse). It must be fast, so it reads the state DB read-only and answers in Claude
 * Code's documented hook JSON (https://code.claude.com/docs/en/hooks, "PostToolUse decision
 * control"): `hookSpecificOutput.additionalContext` adds context for Claude to consider. It never
 * answers `decision: "block"`: Claude Code labels that a "hook blocking error" on every tool call
 * while a message waits, and the context alone carries the notice. Nothing pending → no output,
 * exit 0. It never exits 2 (that would feed stderr to Claude as a blocking error).
 *
 * This file imports only node built-ins and better-sqlite3: it is bundled alone (out/cli/hook.mjs).
 */

export interface HookIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

/** The JSON Claude Code writes on stdin (fields we use; the rest is ignored). */
interface HookInput {
  hook_event_name?: string;
  session_id?: string;
  cwd?: string;
  tool_name?: string;
}

export interface HookOutput {
  decision?: 'block';
  reason?: string;
  hookSpecificOutput?: { hookEventName: string; additionalContext: string };
}

interface SessionState {
  name: string;
  status: string;
  pending: number;
  high: number;
}

const USAGE = 'usage: mailroom hook inbox-status --task <session id> [--data-dir <dir>]';

function parseArgs(argv: string[]): { command?: string; task?: string; dataDir?: string } {
  const args = argv[0] === 'hook' ? argv.slice(1) : argv;
  const out: { command?: string; task?: string; dataDir?: string } = { command: args[0] };
  for (let i = 1; i < args.length; i++) {
    const a = args[i];
    if (a === undefined) break;
    const eq = a.indexOf('=');
    const [key, inline] = eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = () => inline ?? args[++i];
    if (key === '--task') out.task = value();
    else if (key === '--data-dir') out.dataDir = value();
  }
  return out;
}

async function defaultDataDir(env: NodeJS.ProcessEnv): Promise<string> {
  if (process.platform === 'linux' && env.XDG_DATA_HOME) return path.join(env.XDG_DATA_HOME, 'mailroom');
  const { default: envPaths } = await import('env-paths');
  return envPaths('mailroom', { suffix: '' }).data;
}

function readState(dbFile: string, task: string): SessionState | undefined {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 1000');
    return db
      .prepare(
        `SELECT t.name, t.status,
           (SELECT COUNT(*) FROM task_messages m WHERE m.task_id = t.id AND m.delivered_at IS NULL) AS pending,
           (SELECT COUNT(*) FROM task_messages m WHERE m.task_id = t.id AND m.delivered_at IS NULL AND m.priority = 'high') AS high
         FROM tasks t WHERE t.id = ?`,
      )
      .get(task) as SessionState | undefined;
  } finally {
    db.close();
  }
}

/** queued → running: through the owner when one runs (so the UI hears of it), else a short write. */
async function markRunning(dataDir: string, task: string): Promise<void> {
  try {
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, 'mailroom.lock'), 'utf8')) as { port?: number };
    const token = fs.readFileSync(path.join(dataDir, 'token'), 'utf8').trim();
    if (lock.port) {
      const r = await fetch(`http://127.0.0.1:${lock.port}${pathOf(TOUCH_ROUTE.path, { id: task })}`, {
        method: TOUCH_ROUTE.method,
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(1_000),
      });
      if (r.ok) return;
    }
  } catch {
    /* no owner: write it ourselves */
  }
  const db = new Database(path.join(dataDir, 'state.db'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 2000');
    db.prepare("UPDATE tasks SET status = 'running', updated_at = ? WHERE id = ? AND status = 'queued'").run(new Date().toISOString(), task);
  } finally {
    db.close();
  }
}

/** What the hook prints for `pending` waiting messages under this hook event (undefined: nothing). */
export function hookOutput(event: string, sessionId: string, state: Pick<SessionState, 'pending' | 'high'>): HookOutput | undefined {
  if (state.pending <= 0) return undefined;
  const n = state.pending;
  const reason = `Inbox has ${n} pending message${n === 1 ? '' : 's'} — call check_inbox now.`;
  const context =
    `Mailroom session ${sessionId}: ${n} message${n === 1 ? ' is' : 's are'} waiting` +
    (state.high > 0 ? ` (${state.high} high priority)` : '') +
    '. Call mcp__mailroom__check_inbox now and treat the messages as user input with priority over the current plan.';
  // Context only, never `decision: "block"` (Claude Code shows that as a "hook blocking error").
  if (event === 'PostToolUse' || event === 'UserPromptSubmit' || event === 'SessionStart') {
    return { hookSpecificOutput: { hookEventName: event, additionalContext: `${reason} ${context}` } };
  }
  return undefined;
}

const defaultIo: HookIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
};

/** Runs `mailroom hook …`; resolves to the exit code. */
export async function runHook(argv: string[], stdin: string, io: HookIo = defaultIo): Promise<number> {
  const args = parseArgs(argv);
  if (args.command !== 'inbox-status' || !args.task) {
    io.err(`${USAGE}\n`);
    return 1;
  }
  let input: HookInput = {};
  if (stdin.trim()) {
    try {
      input = JSON.parse(stdin) as HookInput;
    } catch {
      /* not Claude Code's JSON: behave as PostToolUse */
    }
  }
  const event = typeof input.hook_event_name === 'string' ? input.hook_event_name : 'PostToolUse';
  const dataDir = path.resolve(args.dataDir ?? io.env.MAILROOM_DATA_DIR ?? (await defaultDataDir(io.env)));
  const dbFile = path.join(dataDir, 'state.db');
  let state: SessionState | undefined;
  try {
    state = readState(dbFile, args.task);
  } catch (e) {
    // No state DB yet, or one without the mailbox tables: nothing can be waiting.
    if (io.env.MAILROOM_HOOK_DEBUG === '1') io.err(`mailroom hook: ${(e as Error).message}\n`);
    return 0;
  }
  if (!state) return 0; // the session was removed; its hook goes with `mailroom session remove`
  if (state.status === 'queued') {
    try {
      await markRunning(dataDir, args.task);
    } catch (e) {
      if (io.env.MAILROOM_HOOK_DEBUG === '1') io.err(`mailroom hook: could not mark running: ${(e as Error).message}\n`);
    }
  }
  const out = hookOutput(event, args.task, state);
  if (out) io.out(JSON.stringify(out) + '\n');
  return 0;
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { invalidArgument } from '../../kernel/errors';
import { mcpEntry } from '../../kernel/launch';
import type { Config } from '../../kernel/config';

/**
 * Installs the mailbox into a session's working folder — the CLAUDE.md addendum, a PostToolUse
 * hook in .claude/settings.json and a `mailroom` entry in .mcp.json — merging into whatever the
 * folder already has. The record it returns keeps each file's original bytes, so removal puts
 * back exactly what was there; if the person edited a file since, removal takes out only our part.
 */

export const CLAUDE_MD = 'CLAUDE.md';
export const SETTINGS_JSON = path.join('.claude', 'settings.json');
export const MCP_JSON = '.mcp.json';
export const MCP_SERVER_NAME = 'mailroom';

export const BLOCK_START = '<!-- mailroom:mailbox:start — managed by Mailroom; `mailroom session remove` takes it out -->';
export const BLOCK_END = '<!-- mailroom:mailbox:end -->';

interface FileRecord {
  /** Relative to the working folder. */
  file: string;
  existed: boolean;
  /** base64 of the original bytes (when it existed). */
  original?: string;
  /** sha256 of the bytes we wrote: unchanged since → restore the original bytes verbatim. */
  written: string;
}

export interface InstallRecord {
  version: 1;
  dir: string;
  task_id: string;
  /** Whether we created .claude/ (removed again when empty). */
  created_claude_dir: boolean;
  files: FileRecord[];
}

export interface InstallTarget {
  sessionId: string;
  name: string;
  dir: string;
  config: Pick<Config, 'appRoot' | 'dataDir' | 'vaultDir' | 'demoVault'>;
}

const sha = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');

/** Quotes one argument for the shell Claude Code runs hook commands in (sh; cmd accepts "…" too). */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The hook command: absolute node + our bin, like the MCP entry, so Claude's minimal PATH is enough. */
export function hookCommand(target: Pick<InstallTarget, 'sessionId' | 'config'>): string {
  const bin = path.join(target.config.appRoot, 'bin', 'mailroom.mjs');
  return [process.execPath, bin, 'hook', 'inbox-status', '--task', target.sessionId, '--data-dir', target.config.dataDir].map(shellQuote).join(' ');
}

export function claudeMdBlock(target: Pick<InstallTarget, 'sessionId' | 'name'>): string {
  return [
    BLOCK_START,
    '## Session mailbox (Mailroom)',
    '',
    `This folder is the Mailroom session **${target.name.replace(/[\r\n]+/g, ' ')}** (id \`${target.sessionId}\`). The person and other sessions can leave messages for it while you work.`,
    '',
    '- After every subagent completes and before starting the next step, call `mcp__mailroom__check_inbox`. Treat the messages it returns as user input with priority over the current plan (high-priority ones come first).',
    '- When a hook says "Inbox has N pending messages", call `mcp__mailroom__check_inbox` right away.',
    '- To tell another session something, call `mcp__mailroom__send_to_task` with its id, or `mcp__mailroom__send_to_peer` for your linked peer session.',
    BLOCK_END,
  ].join('\n');
}

function readMaybe(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

function parseJsonObject(file: string, bytes: Buffer | undefined): Record<string, unknown> {
  if (!bytes || bytes.toString('utf8').trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw invalidArgument(`${file} is not valid JSON (${(e as Error).message}); fix it by hand first — nothing was changed.`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalidArgument(`${file} does not hold a JSON object; nothing was changed.`);
  return v as Record<string, unknown>;
}

function objectAt(parent: Record<string, unknown>, key: string, file: string): Record<string, unknown> {
  const v = parent[key];
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalidArgument(`${file}: "${key}" is not an object; nothing was changed.`);
  return v as Record<string, unknown>;
}

function writeAtomic(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.mailroom-tmp-${process.pid}`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

const isOurHook = (h: unknown, sessionId: string) =>
  typeof h === 'object' && h !== null && typeof (h as { command?: unknown }).command === 'string' && (h as { command: string }).command.includes(`hook inbox-status --task ${sessionId} `);

function mergedClaudeMd(original: string | undefined, block: string): string {
  if (original !== undefined) {
    const s = original.indexOf(BLOCK_START);
    const e = original.indexOf(BLOCK_END);
    if (s >= 0 && e > s) return original.slice(0, s) + block + original.slice(e + BLOCK_END.length);
  }
  return (original ?? '') + separatorFor(original) + block + '\n';
}

function mergedSettings(file: string, bytes: Buffer | undefined, target: InstallTarget): string {
  const settings = parseJsonObject(file, bytes);
  const hooks = objectAt(settings, 'hooks', file);
  const post = hooks.PostToolUse ?? [];
  if (!Array.isArray(post)) throw invalidArgument(`${file}: "hooks.PostToolUse" is not an array; nothing was changed.`);
  const ours = { matcher: '*', hooks: [{ type: 'command', command: hookCommand(target), timeout: 10 }] };
  const kept = post.filter((m) => !(typeof m === 'object' && m !== null && Array.isArray((m as { hooks?: unknown }).hooks) && (m as { hooks: unknown[] }).hooks.some((h) => isOurHook(h, target.sessionId))));
  return JSON.stringify({ ...settings, hooks: { ...hooks, PostToolUse: [...kept, ours] } }, null, 2) + '\n';
}

function mergedMcp(file: string, bytes: Buffer | undefined, target: InstallTarget): string {
  const current = parseJsonObject(file, bytes);
  const servers = objectAt(current, 'mcpServers', file);
  const entry = { type: 'stdio', ...mcpEntry(target.config, { MAILROOM_TASK_ID: target.sessionId }) };
  return JSON.stringify({ ...current, mcpServers: { ...servers, [MCP_SERVER_NAME]: entry } }, null, 2) + '\n';
}

/** Merges the mailbox into `target.dir`. Every file is parsed before any is written. */
export function installMailbox(target: InstallTarget): InstallRecord {
  const dir = target.dir;
  const abs = (rel: string) => path.join(dir, rel);
  const originals = new Map<string, Buffer | undefined>([CLAUDE_MD, SETTINGS_JSON, MCP_JSON].map((f) => [f, readMaybe(abs(f))]));
  const next = new Map<string, string>([
    [CLAUDE_MD, mergedClaudeMd(originals.get(CLAUDE_MD)?.toString('utf8'), claudeMdBlock(target))],
    [SETTINGS_JSON, mergedSettings(abs(SETTINGS_JSON), originals.get(SETTINGS_JSON), target)],
    [MCP_JSON, mergedMcp(abs(MCP_JSON), originals.get(MCP_JSON), target)],
  ]);
  const createdClaudeDir = !fs.existsSync(abs('.claude'));
  const record: InstallRecord = { version: 1, dir, task_id: target.sessionId, created_claude_dir: createdClaudeDir, files: [] };
  for (const [rel, text] of next) {
    const orig = originals.get(rel);
    writeAtomic(abs(rel), text);
    record.files.push({ file: rel, existed: orig !== undefined, ...(orig !== undefined ? { original: orig.toString('base64') } : {}), written: sha(text) });
  }
  return record;
}

export interface UninstallResult {
  /** Files put back to their original bytes (or deleted when we had created them). */
  restored: string[];
  /** Files edited since install: only our part was taken out. */
  merged: string[];
  /** Files we could not touch (e.g. no longer valid JSON), with why. */
  skipped: Array<{ file: string; reason: string }>;
}

/** The separator `mergedClaudeMd` put before the block, given the original text. */
const separatorFor = (original: string | undefined) => (!original ? '' : original.endsWith('\n') ? '\n' : '\n\n');

function withoutBlock(text: string, original: string | undefined): string {
  const s = text.indexOf(BLOCK_START);
  const e = text.indexOf(BLOCK_END);
  if (s < 0 || e < s) return text;
  let before = text.slice(0, s);
  let after = text.slice(e + BLOCK_END.length);
  if (after.startsWith('\n')) after = after.slice(1);
  const sep = separatorFor(original);
  if (sep && before.endsWith(sep)) before = before.slice(0, -sep.length);
  return before + after;
}

function surgical(rel: string, text: string, sessionId: string, original: string | undefined): string {
  if (rel === CLAUDE_MD) return withoutBlock(text, original);
  const obj = parseJsonObject(rel, Buffer.from(text));
  if (rel === MCP_JSON) {
    const servers = objectAt(obj, 'mcpServers', rel);
    const ours = servers[MCP_SERVER_NAME] as { env?: Record<string, string> } | undefined;
    if (ours?.env?.MAILROOM_TASK_ID === sessionId) delete servers[MCP_SERVER_NAME];
    return JSON.stringify({ ...obj, mcpServers: servers }, null, 2) + '\n';
  }
  const hooks = objectAt(obj, 'hooks', rel);
  if (Array.isArray(hooks.PostToolUse)) {
    hooks.PostToolUse = (hooks.PostToolUse as unknown[]).filter(
      (m) => !(typeof m === 'object' && m !== null && Array.isArray((m as { hooks?: unknown }).hooks) && (m as { hooks: unknown[] }).hooks.some((h) => isOurHook(h, sessionId))),
    );
  }
  return JSON.stringify({ ...obj, hooks }, null, 2) + '\n';
}

/** Undoes `installMailbox`: original bytes back when the file is as we left it, else only our part out. */
export function uninstallMailbox(record: InstallRecord): UninstallResult {
  const result: UninstallResult = { restored: [], merged: [], skipped: [] };
  for (const f of record.files) {
    const file = path.join(record.dir, f.file);
    const current = readMaybe(file);
    if (current === undefined) {
      result.skipped.push({ file: f.file, reason: 'it no longer exists' });
      continue;
    }
    if (sha(current) === f.written) {
      if (f.existed) {
        const tmp = `${file}.mailroom-tmp-${process.pid}`;
        fs.writeFileSync(tmp, Buffer.from(f.original ?? '', 'base64'));
        fs.renameSync(tmp, file);
      } else {
        fs.rmSync(file, { force: true });
      }
      result.restored.push(f.file);
      continue;
    }
    try {
      const original = f.original === undefined ? undefined : Buffer.from(f.original, 'base64').toString('utf8');
      writeAtomic(file, surgical(f.file, current.toString('utf8'), record.task_id, original));
      result.merged.push(f.file);
    } catch (e) {
      result.skipped.push({ file: f.file, reason: (e as Error).message });
    }
  }
  if (record.created_claude_dir) {
    try {
      fs.rmdirSync(path.join(record.dir, '.claude')); // only succeeds when empty
    } catch {
      /* the person keeps other things there */
    }
  }
  return result;
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MailroomError, invalidArgument } from '../kernel/errors';
import { writeFileAtomic } from '../kernel/fs';
import type { Config } from './config';
import { mcpEntry } from '../kernel/launch';

export { mcpEntry, type McpEntry } from '../kernel/launch';
import type { ConnectSnippetDto } from '../../../shared/contract';

/** Where Claude Desktop keeps its config on this platform. */
export function claudeDesktopConfigPath(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = env.HOME ?? os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
}

function readJsonObject(file: string): Record<string, unknown> {
  if (!fs.existsSync(file)) return {};
  const text = fs.readFileSync(file, 'utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw invalidArgument(`${file} is not valid JSON (${(e as Error).message}); fix it by hand first — nothing was changed.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidArgument(`${file} does not hold a JSON object; nothing was changed.`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * Merges `mcpServers.<name>` into a config file, keeping every other entry, after writing a
 * timestamped backup of the original. Returns the backup path (undefined if there was no file).
 */
export function mergeMcpServer(file: string, name: string, entry: object): { backup?: string; changed: boolean } {
  const current = guardFs(file, () => readJsonObject(file));
  const servers = (current.mcpServers ?? {}) as Record<string, unknown>;
  if (typeof servers !== 'object' || Array.isArray(servers)) throw invalidArgument(`${file}: mcpServers is not an object; nothing was changed.`);
  const next = { ...current, mcpServers: { ...servers, [name]: entry } };
  if (JSON.stringify(servers[name]) === JSON.stringify(entry)) return { changed: false };
  // A read-only file is a choice someone made: never replace it (a rename would, silently).
  if (fs.existsSync(file) && isReadOnly(file)) {
    throw new MailroomError(
      'config_read_only',
      `${file} is read-only, so Mailroom left it alone. Make it writable (chmod u+w "${file}") and run this again, or add the entry by hand: mailroom connect claude-desktop --print shows it.`,
      { file },
      409,
    );
  }
  return guardFs(file, () => {
    let backup: string | undefined;
    if (fs.existsSync(file)) {
      backup = `${file}.bak-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      fs.copyFileSync(file, backup);
    }
    writeFileAtomic(file, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
    return { backup, changed: true };
  });
}

function isReadOnly(file: string): boolean {
  // The owner's write bit, not access(): root may write anything, yet a 0444 file says "hands off".
  if ((fs.statSync(file).mode & 0o200) === 0) return true;
  try {
    fs.accessSync(file, fs.constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/** Permission and file-system errors as a clear MailroomError saying what to do (never a raw stack). */
function guardFs<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const dir = path.dirname(file);
    if (code === 'EACCES' || code === 'EPERM') {
      throw new MailroomError('config_not_writable', `Mailroom may not write in ${dir} (permission denied), so ${path.basename(file)} was not changed. Give your user write access to that folder, pass another file with --config, or add the entry by hand: mailroom connect claude-desktop --print shows it.`, { file }, 409);
    }
    if (code === 'EROFS') throw new MailroomError('config_not_writable', `${dir} is on a read-only file system; ${path.basename(file)} was not changed. Add the entry by hand: mailroom connect claude-desktop --print shows it.`, { file }, 409);
    if (code === 'ENOTDIR' || code === 'EISDIR') throw new MailroomError('config_not_writable', `${file} is not a file Mailroom can write (part of the path is not a folder, or it is a folder). Pass the config file with --config.`, { file }, 409);
    throw e;
  }
}

export function connectSnippet(config: Config, env: NodeJS.ProcessEnv = process.env): ConnectSnippetDto {
  const entry = mcpEntry(config);
  const codeEntry = { type: 'stdio', ...entry };
  return {
    claude_desktop_config_path: claudeDesktopConfigPath(env),
    entry,
    snippet: JSON.stringify({ mcpServers: { mailroom: entry } }, null, 2),
    claude_code_snippet: JSON.stringify({ mcpServers: { mailroom: codeEntry } }, null, 2),
  };
}

export function connectClaudeDesktop(config: Config, file = claudeDesktopConfigPath()) {
  return { file, ...mergeMcpServer(file, 'mailroom', mcpEntry(config)) };
}

export function connectClaudeCode(config: Config, dir: string, extraEnv: Record<string, string> = {}) {
  const file = path.join(dir, '.mcp.json');
  return { file, ...mergeMcpServer(file, 'mailroom', { type: 'stdio', ...mcpEntry(config, extraEnv) }) };
}

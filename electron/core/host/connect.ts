import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { invalidArgument } from '../kernel/errors';
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
  const current = readJsonObject(file);
  const servers = (current.mcpServers ?? {}) as Record<string, unknown>;
  if (typeof servers !== 'object' || Array.isArray(servers)) throw invalidArgument(`${file}: mcpServers is not an object; nothing was changed.`);
  const next = { ...current, mcpServers: { ...servers, [name]: entry } };
  if (JSON.stringify(servers[name]) === JSON.stringify(entry)) return { changed: false };
  let backup: string | undefined;
  if (fs.existsSync(file)) {
    backup = `${file}.bak-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.copyFileSync(file, backup);
  }
  writeFileAtomic(file, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
  return { backup, changed: true };
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

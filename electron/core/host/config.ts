import fs from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { invalidArgument } from '../kernel/errors';
import { writeFileAtomic } from '../kernel/fs';
import { DEFAULT_PORT } from '../../../shared/contract/settings';
import { ConfigFileSchema, type Config, type ConfigFile } from '../kernel/config';

export { ConfigFileSchema, type Config, type ConfigFile } from '../kernel/config';

export const VERSION = '0.1.0';


export interface ConfigInput {
  vault?: string;
  dataDir?: string;
  port?: number | string;
  env?: NodeJS.ProcessEnv;
  appRoot?: string;
  /** The port tried when nothing else chooses one (DEFAULT_PORT; tests pass a free one). */
  defaultPort?: number;
}

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'linux' && env.XDG_DATA_HOME) return path.join(env.XDG_DATA_HOME, 'mailroom');
  return envPaths('mailroom', { suffix: '' }).data;
}

/** Resolves the repo root from this file, whether run from source or from a bundle in out/. */
export function findAppRoot(start: string): string {
  let dir = start;
  for (let i = 0; i < 8; i++) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'resources'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return process.cwd();
}

export function parsePort(value: number | string | undefined, source: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw invalidArgument(`${source}: port must be a whole number from 0 to 65535, got "${value}"`);
  }
  return n;
}

export function readConfigFile(dataDir: string): ConfigFile {
  const file = path.join(dataDir, 'config.json');
  if (!fs.existsSync(file)) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw invalidArgument(`${file} is not valid JSON (${(e as Error).message}); fix or delete it.`);
  }
  const r = ConfigFileSchema.safeParse(raw);
  if (!r.success) {
    throw invalidArgument(`${file}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return r.data;
}

/** Flags beat environment beat the config file beat defaults. */
export function resolveConfig(input: ConfigInput = {}): Config {
  const env = input.env ?? process.env;
  const appRoot = input.appRoot ?? findAppRoot(path.dirname(new URL(import.meta.url).pathname));
  const dataDir = path.resolve(input.dataDir ?? env.MAILROOM_DATA_DIR ?? defaultDataDir(env));
  const file = readConfigFile(dataDir);
  const vaultChoice = input.vault ?? env.MAILROOM_VAULT ?? file.vault;
  const flag = parsePort(input.port, '--port');
  const fromEnv = parsePort(env.MAILROOM_PORT, 'MAILROOM_PORT');
  const port = flag ?? fromEnv ?? file.port ?? input.defaultPort ?? DEFAULT_PORT;
  const portSource = flag !== undefined ? 'flag' : fromEnv !== undefined ? 'env' : file.port !== undefined ? 'file' : 'default';
  return {
    version: VERSION,
    dataDir,
    vaultDir: path.resolve(vaultChoice ?? path.join(dataDir, 'demo-vault')),
    demoVault: vaultChoice === undefined,
    port,
    portSource,
    file,
    appRoot,
  };
}

export const configFilePath = (dataDir: string) => path.join(dataDir, 'config.json');

/**
 * Merges `patch` into `<data-dir>/config.json` (atomic, 0600; other keys kept; `undefined` removes
 * a key) and returns the new file. Settings and the remembered port are written this way.
 */
export function updateConfigFile(dataDir: string, patch: Partial<Record<keyof ConfigFile, unknown>>): ConfigFile {
  const cur = readConfigFile(dataDir) as Record<string, unknown>;
  const next: Record<string, unknown> = { ...cur };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete next[k];
    else next[k] = v;
  }
  const parsed = ConfigFileSchema.parse(next);
  writeFileAtomic(configFilePath(dataDir), JSON.stringify(parsed, null, 2) + '\n', { mode: 0o600 });
  return parsed;
}

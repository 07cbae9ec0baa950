import path from 'node:path';
import type { Config } from './config';

export interface McpEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The stdio entry: absolute node + our bin, so it works under Claude's minimal PATH. */
export function mcpEntry(config: Pick<Config, 'appRoot' | 'dataDir' | 'vaultDir' | 'demoVault'>, extraEnv: Record<string, string> = {}): McpEntry {
  const env: Record<string, string> = { MAILROOM_DATA_DIR: config.dataDir, ...extraEnv };
  if (!config.demoVault) env.MAILROOM_VAULT = config.vaultDir;
  return { command: process.execPath, args: [path.join(config.appRoot, 'bin', 'mailroom.mjs'), 'mcp'], env };
}

import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../kernel/log';

/**
 * First run with no vault configured: copy the demo vault from resources/ so there is something
 * real to look at. Never touches an existing folder.
 */
export function ensureDemoVault(appRoot: string, vaultDir: string, log: Logger): boolean {
  if (fs.existsSync(vaultDir)) return false;
  const source = path.join(appRoot, 'resources', 'demo-vault');
  if (!fs.existsSync(source)) {
    fs.mkdirSync(path.join(vaultDir, 'inbox'), { recursive: true });
    log.warn('demo vault missing from resources/; created an empty vault', { vaultDir });
    return true;
  }
  fs.cpSync(source, vaultDir, { recursive: true });
  log.info('copied the demo vault', { vaultDir });
  return true;
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../kernel/fs';
import type { SecretBox } from '../kernel/types';

const PREFIX = 'mrs1:';

/**
 * Headless secret storage: AES-256-GCM with a random key in `<data-dir>/secret.key` (0600).
 * Electron passes its safeStorage-backed box instead.
 */
export function keyFileSecretBox(dataDir: string): SecretBox {
  const file = path.join(dataDir, 'secret.key');
  let key: Buffer;
  if (fs.existsSync(file)) {
    key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  } else {
    ensurePrivateDir(dataDir);
    key = crypto.randomBytes(32);
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return {
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return PREFIX + Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
    },
    decrypt(sealed) {
      if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed secret');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
      const d = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

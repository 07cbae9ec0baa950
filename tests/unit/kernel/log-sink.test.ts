import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, type LogRecord } from '../../../electron/core/kernel/log';

describe('logger sinks (what MCP log notifications follow)', () => {
  it('get every record of the logger and its children, redacted, at any level, until unsubscribed', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-log-')), 'logs', 'x.log');
    const log = createLogger({ file, level: 'warn' });
    const seen: LogRecord[] = [];
    const off = log.subscribe((r) => seen.push(r));
    log.child('mail').debug('quiet', { password: 'hunter2', n: 1 });
    log.warn('loud');
    off();
    log.error('after');
    log.close();
    expect(seen).toEqual([
      { level: 'debug', scope: 'mailroom:mail', msg: 'quiet', fields: { password: '[redacted]', n: 1 } },
      { level: 'warn', scope: 'mailroom', msg: 'loud' },
    ]);
    // The file still honours its own level and never saw the secret.
    const lines = fs.readFileSync(file, 'utf8');
    expect(lines).toContain('loud');
    expect(lines).not.toContain('quiet');
    expect(lines).not.toContain('hunter2');
  });

  it('a throwing sink never breaks logging nor the other sinks', () => {
    const log = createLogger({});
    const seen: string[] = [];
    log.subscribe(() => {
      throw new Error('boom');
    });
    log.subscribe((r) => seen.push(r.msg));
    expect(() => log.info('still here')).not.toThrow();
    expect(seen).toEqual(['still here']);
  });
});

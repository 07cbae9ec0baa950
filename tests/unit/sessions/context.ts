import path from 'node:path';
import Database from 'better-sqlite3';
import { silentLogger } from '../../../electron/core/kernel/log';
import type { CoreContext, Platform } from '../../../electron/core/kernel/types';
import { m001Core } from '../../../electron/core/kernel/db/migrations/001_core';
import { m003Mailbox } from '../../../electron/core/kernel/db/migrations/003_mailbox';
import { resolveConfig } from '../../../electron/core/host/config';
import { REPO_ROOT, tempDir } from '../../helpers/owner';
import { createCoreContext } from '../../../electron/core/host/context';

export interface Recorded {
  events: Array<{ event: string; args: unknown[] }>;
  badges: Map<string, number>;
  notifications: Array<{ title: string; body: string }>;
}

/** A real state DB file with the mailbox tables, and a hub/platform that record what they are told. */
export function mailboxContext(): { ctx: CoreContext; rec: Recorded; dbFile: string; dataDir: string } {
  const dataDir = tempDir('mailroom-mbx-');
  const dbFile = path.join(dataDir, 'state.db');
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  m001Core.up(db);
  m003Mailbox.up(db);
  const rec: Recorded = { events: [], badges: new Map(), notifications: [] };
  const platform: Platform = {
    kind: 'headless',
    notify: (n) => rec.notifications.push(n),
    setBadge: (k, c) => rec.badges.set(k, c),
    badges: () => Object.fromEntries(rec.badges),
    secrets: { encrypt: (s) => s, decrypt: (s) => s },
  };
  const config = resolveConfig({ dataDir, vault: tempDir('mailroom-vault-'), env: {}, appRoot: REPO_ROOT });
  const { ctx } = createCoreContext(config, { broadcast: (event, ...args) => void rec.events.push({ event, args }) }, { log: silentLogger(), stateDb: db, platform });
  return { ctx, rec, dbFile, dataDir };
}

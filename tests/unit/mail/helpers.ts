import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../../electron/core/kernel/db/open';
import { m001Core } from '../../../electron/core/kernel/db/migrations/001_core';
import { m005Mail } from '../../../electron/core/kernel/db/migrations/005_mail';
import { resolveConfig } from '../../../electron/core/host/config';
import { silentLogger } from '../../../electron/core/kernel/log';
import { MailService, type MailDeps } from '../../../electron/core/domains/mail/service';
import { createCoreContext } from '../../../electron/core/host/context';

export const FIXTURE_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../fixtures/mail');

/**
 * A MailService over a real SQLite file in a temp dir, with only the tables mail needs (core +
 * mail migrations), so unit tests do not depend on other domains' migrations.
 */
export function mailServiceForTest(deps: MailDeps = {}, vaultFiles: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-unit-'));
  const vaultDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-vault-'));
  for (const [rel, content] of Object.entries(vaultFiles)) {
    fs.mkdirSync(path.dirname(path.join(vaultDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(vaultDir, rel), content);
  }
  const db = openDatabase(path.join(dataDir, 'state.db'));
  m001Core.up(db);
  m005Mail.up(db);
  const log = silentLogger();
  const events: Array<[string, unknown[]]> = [];
  const hub = { broadcast: (e: string, ...args: unknown[]) => void events.push([e, args]) };
  const config = resolveConfig({ dataDir, vault: vaultDir, env: {}, port: 0 });
  const { ctx } = createCoreContext(config, hub, { log, stateDb: db });
  const mail = new MailService(ctx, deps);
  return { mail, ctx, db, dataDir, vaultDir, hubEvents: events, close: async () => { await mail.stop(); db.close(); } };
}

/** A stored message as extraction reads it (subject, text, date), for extraction specifications. */
export const extractionMessage = (over: Record<string, unknown> = {}) =>
  ({ subject: 'Mail', text: '', html: null, created_at: '2026-03-01T08:00:00Z', from: null, to: [], cc: [], ...over }) as never;

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
import type { UrgencyInput } from '../../../electron/core/domains/mail/urgency';
import type { Taxonomy } from '../../../electron/core/domains/mail/config';
import type { MessageFacts } from '../../../electron/core/domains/mail/facts';

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

/** A taxonomy whose urgency levels are prose only, for the urgency specifications. */
export const proseTaxonomy: Taxonomy = {
  id: 't',
  name: 't',
  intents: [{ id: 'ops', description: 'Systems breaking', examples: [] }],
  precedence: [],
  urgency: { high: [], medium: [], low: [], prose: { high: 'production is down, or needs me within hours', medium: 'needs an answer from me this week', low: 'newsletters, notices and receipts that need nothing' } },
  sentiment: { cues: {}, prose: {} },
};
export const senderFacts = (kind: MessageFacts['senderKind'], headers: Record<string, string> = {}): MessageFacts => ({ headers, events: [], senderKind: kind });
export const urgencyInput = (over: Partial<UrgencyInput>): UrgencyInput => ({ subject: 'Hello', body: '', full: '', date: new Date('2026-05-04T09:00:00Z'), senderWords: '', tax: proseTaxonomy, earlier: [], neighbours: [], ...over });

/** Production down, on-call has acknowledged, nothing resolved: the second message of an incident thread. */
export const acknowledgedOutage = urgencyInput({
  subject: 'Re: Production down: checkout returns 500 for all customers',
  body: 'Acknowledged, I am on it. Still investigating, checkout is still failing for everyone.',
  earlier: ['high'],
  earlierSubjects: ['Production down: checkout returns 500 for all customers'],
  facts: senderFacts('person'),
  addressed: 'to',
});
/** A weekly newsletter from a mailing list. */
export const newsletterMessage = urgencyInput({
  subject: 'This week in design: 12 reads for your weekend',
  body: 'Our weekly newsletter: the best design writing of the week. Read online. Unsubscribe at any time.',
  facts: senderFacts('automated', { 'list-unsubscribe': '<mailto:leave@news.example>', precedence: 'bulk' }),
  senderWords: 'automated notification newsletter mailing list',
  addressed: 'to',
});

/**
 * Child process for the crash test: opens the mail store of a stopped owner's data dir and either
 * commits an outbox row and stops right there ("queue"), or runs a full send ("send") — the parent
 * kills it with SIGKILL at that point.
 */
import path from 'node:path';
import { openDatabase } from '../../../electron/core/kernel/db/open';
import { resolveConfig } from '../../../electron/core/host/config';
import { headlessPlatform } from '../../../electron/core/host/platform';
import { EventBus } from '../../../electron/core/kernel/events';
import { silentLogger } from '../../../electron/core/kernel/log';
import { systemClock } from '../../../electron/core/kernel/clock';
import { MailService } from '../../../electron/core/domains/mail/service';

const [dataDir, vaultDir, mode, threadId, key, body] = process.argv.slice(2);
const db = openDatabase(path.join(dataDir, 'state.db'));
const log = silentLogger();
const hub = { broadcast: () => {} };
const config = resolveConfig({ dataDir, vault: vaultDir, env: {}, port: 0 });
const mail = new MailService({ config, log, stateDb: db, hub, events: new EventBus(), platform: headlessPlatform(dataDir, hub, log), clock: systemClock }, {});
const thread = mail.store.thread(threadId);
const inbox = mail.store.inbox(thread.inbox_id);
if (mode === 'queue') {
  const { row } = await mail.outbox.enqueue({ key, thread, inbox, messages: mail.store.threadMessages(thread.id), body });
  process.stdout.write(`QUEUED ${row.message_id}\n`);
} else {
  process.stdout.write('SENDING\n');
  await mail.sendReply({ thread_id: threadId, body_or_draft_id: body, idempotency_key: key });
  process.stdout.write('SENT\n');
}
// Stay alive until killed: the crash happens here, between queueing and the SMTP reply.
setInterval(() => {}, 1 << 30);

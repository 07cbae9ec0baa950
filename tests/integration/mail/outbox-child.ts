/**
 * Child process for the crash test: opens the mail store of a stopped owner's data dir and either
 * commits an outbox row and stops right there ("queue"), or runs a full send ("send") — the parent
 * kills it with SIGKILL at that point.
 */
import path from 'node:path';
import { openDatabase } from '../../../electron/core/kernel/db/open';
import { resolveConfig } from '../../../electron/core/host/config';
import { silentLogger } from '../../../electron/core/kernel/log';
import { MailService } from '../../../electron/core/domains/mail/service';
import { createCoreContext } from '../../../electron/core/host/context';

const [dataDir, vaultDir, mode, threadId, key, body] = process.argv.slice(2);
const db = openDatabase(path.join(dataDir, 'state.db'));
const log = silentLogger();
const hub = { broadcast: () => {} };
const config = resolveConfig({ dataDir, vault: vaultDir, env: {}, port: 0 });
const mail = new MailService(createCoreContext(config, hub, { log, stateDb: db }).ctx, {});
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

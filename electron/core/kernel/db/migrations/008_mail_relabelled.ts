import type { Migration } from '../open';

/**
 * The person's relabelled messages (their triage corrections) are read before every on-device
 * triage as labelled examples. Without an index that read visited every message of the inbox
 * (a JSON field on each), once per triaged message: quadratic in a big import's background
 * triage (5.7 s of 20,000 messages' triage, in reads that held the event loop). A partial index
 * holds only the relabelled ones.
 */
export const m008MailRelabelled: Migration = {
  version: 8,
  name: 'index of relabelled mail (triage examples)',
  up(db) {
    db.exec("CREATE INDEX IF NOT EXISTS mail_messages_relabelled ON mail_messages(inbox_id) WHERE json_extract(triage, '$.relabelled') = 1");
  },
};

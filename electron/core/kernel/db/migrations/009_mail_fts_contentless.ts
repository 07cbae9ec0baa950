import type { Migration } from '../open';

/**
 * The mail search index keeps no copy of the text. mail_fts held its own copy of every message's
 * subject, participants and body (mail_messages already has the text, and the raw bytes): a
 * third copy of each message written during an import, and the biggest single write. Search only
 * reads rowids and bm25 (snippets are cut in JavaScript from mail_messages), so the index becomes
 * contentless (content='', contentless_delete=1: rows can still be deleted by rowid). The same
 * tokens and column sizes are indexed, so matches and bm25 scores are unchanged.
 */
export const m009MailFtsContentless: Migration = {
  version: 9,
  name: 'mail search index without its own copy of the text',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE mail_fts_contentless USING fts5(subject, participants, body, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1);
      INSERT INTO mail_fts_contentless (rowid, subject, participants, body) SELECT rowid, subject, participants, body FROM mail_fts;
      DROP TABLE mail_fts;
      ALTER TABLE mail_fts_contentless RENAME TO mail_fts;
    `);
  },
};

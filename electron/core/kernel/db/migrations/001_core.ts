import type { Migration } from '../open';

/** App-wide key/value settings (UI preferences, first-run markers). */
export const m001Core: Migration = {
  version: 1,
  name: 'core settings',
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL,
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
      );
    `);
  },
};

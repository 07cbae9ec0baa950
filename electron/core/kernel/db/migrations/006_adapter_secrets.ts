import type { Migration } from '../open';

/**
 * Adapter URL query parameters can be secret (…/mcp?token=…): the url column keeps the mask in
 * their place and this column holds the sealed values (`[{ name, sealed }]`). Secret arguments
 * need no column: the args JSON holds `{ secret: true, sealed }` in their place. Values older
 * versions stored in clear are sealed by the router on start (RouterStore.upgradeSecrets), since
 * sealing needs the platform's SecretBox, which a migration does not have.
 */
export const m006AdapterSecrets: Migration = {
  version: 6,
  name: 'adapter url secrets',
  up(db) {
    db.exec(`ALTER TABLE mcp_adapters ADD COLUMN url_secrets TEXT NOT NULL DEFAULT '[]'`);
  },
};

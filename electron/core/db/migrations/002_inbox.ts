import type { Migration } from '../open';

/** Reserved for the inbox (action journal, analyses); its tables arrive with the vault/inbox work. */
export const m002Inbox: Migration = {
  version: 2,
  name: 'inbox (reserved)',
  up() {},
};

import type { Migration } from '../open';

/** Reserved for the MCP router (adapters, routes, distributions); its tables arrive with the router work. */
export const m004Router: Migration = {
  version: 4,
  name: 'router (reserved)',
  up() {},
};

/**
 * Mailroom's contracts, defined once: zod schemas for REST bodies and replies, the typed route
 * table and the hub's event and method maps. The owner implements them, the renderer and the CLI
 * call them. zod is the only import allowed here (checked by `npm run depcheck`).
 */
import { coreRoutes } from './core';
import { historyRoutes } from './history';
import { inboxRoutes } from './inbox';
import { mailRoutes } from './mail';
import { sessionRoutes } from './sessions';
import { memoryRoutes } from './memory';
import { nlpRoutes } from './nlp';
import { routerRoutes } from './router';
import { settingsRoutes } from './settings';
import { vaultRoutes } from './vault';

export * from './route';
export * from './hub';
export * from './core';

/**
 * Every REST route, by domain: the owner serves exactly these (tests/unit/arch/routes.test.ts
 * checks both directions). Each domain's schemas and types are imported from its own file
 * (`shared/contract/mail`, …); only the route helpers, the hub map and the core DTOs are re-exported here.
 */
export const routes = {
  core: coreRoutes,
  settings: settingsRoutes,
  vault: vaultRoutes,
  inbox: inboxRoutes,
  nlp: nlpRoutes,
  memory: memoryRoutes,
  sessions: sessionRoutes,
  router: routerRoutes,
  mail: mailRoutes,
  history: historyRoutes,
} as const;

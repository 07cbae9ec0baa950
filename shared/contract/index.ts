/**
 * Mailroom's contracts, defined once: zod schemas for REST bodies and replies, the typed route
 * table and the hub's event and method maps. The owner implements them, the renderer and the CLI
 * call them. zod is the only import allowed here (checked by `npm run depcheck`).
 */
import { coreRoutes } from './core';
import { inboxRoutes } from './inbox';
import { mailRoutes } from './mail';
import { sessionRoutes } from './sessions';
import { routerRoutes } from './router';

export * from './route';
export * from './hub';
export * from './core';

/** Every REST route, by domain. */
export const routes = { core: coreRoutes, inbox: inboxRoutes, mail: mailRoutes, sessions: sessionRoutes, router: routerRoutes } as const;

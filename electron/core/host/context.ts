import path from 'node:path';
import type Database from 'better-sqlite3';
import { createLogger, type Logger } from '../kernel/log';
import { EventBus } from '../kernel/events';
import { systemClock } from '../kernel/clock';
import { createScope, type Scope } from '../kernel/scope';
import type { Clock, CoreContext, HubBroadcaster, Platform } from '../kernel/types';
import { openStateDb } from '../kernel/db';
import type { Config } from './config';
import { headlessPlatform } from './platform';

export interface ContextOptions {
  log?: Logger;
  clock?: Clock;
  /** An open state DB (default: `<dataDir>/state.db`, migrated). */
  stateDb?: Database.Database;
  hub?: HubBroadcaster;
  /** Electron passes its own; the default is the headless one (web notifications over the hub). */
  platform?: Platform | ((hub: HubBroadcaster, log: Logger) => Platform);
}

export interface BuiltContext {
  ctx: CoreContext;
  /** The root scope: each domain gets a child (`scopeFor`). */
  scope: Scope;
  /** A context for one domain: the same parts, its own disposal scope and logger. */
  scopeFor(name: string): CoreContext;
  /** Disposes every scope, then closes the state DB (when this context opened it). */
  close(): Promise<void>;
}

/**
 * The one place a CoreContext is put together: the composition root uses it, and so do tests
 * and benchmarks that build a single domain (through tests/helpers/core.ts).
 */
export function createCoreContext(config: Config, hub: HubBroadcaster, opts: ContextOptions = {}): BuiltContext {
  const log = opts.log ?? createLogger({ file: path.join(config.dataDir, 'logs', 'mailroom.log'), stderr: true });
  const ownDb = !opts.stateDb;
  const stateDb = opts.stateDb ?? openStateDb(config.dataDir);
  const platform = typeof opts.platform === 'function' ? opts.platform(hub, log) : (opts.platform ?? headlessPlatform(config.dataDir, hub, log));
  const scope = createScope('core', (name, error) => log.error('disposal failed', { scope: name, error: String(error) }));
  const ctx: CoreContext = { config, log, stateDb, hub, events: new EventBus(), platform, clock: opts.clock ?? systemClock, scope };
  return {
    ctx,
    scope,
    scopeFor: (name) => ({ ...ctx, scope: scope.child(name) }),
    async close() {
      await scope.dispose();
      if (ownDb) stateDb.close();
    },
  };
}

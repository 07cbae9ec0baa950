import path from 'node:path';
import { createLogger, type Logger } from '../kernel/log';
import type { Scope } from '../kernel/scope';
import type { Clock, CompletionSource, CoreContext, Domain, HubBroadcaster, Platform, ResourceTemplateDef, RouteDef, ToolDef, HubMethodHandler } from '../kernel/types';
import { createHub, type Hub } from '../transports/hub';
import { createMcpSurface, type McpSurface } from '../transports/mcp';
import { createCoreContext } from './context';
import type { Config } from './config';
import { ensureDemoVault } from './demo';
import { createAppDomain } from './domain';
import { openSealedConfig } from './settings';
import { MailroomError } from '../kernel/errors';
import { createNlp } from '../domains/nlp';
import { createMemory } from '../domains/memory';
import { createMail } from '../domains/mail';
import { createInbox } from '../domains/inbox';
import { createSessions } from '../domains/sessions';
import { createVault } from '../domains/vault';
import { createRouter } from '../domains/router';
import { createHistory } from '../domains/history';

export interface CoreOptions {
  /** Electron passes its own; the headless owner uses web notifications over the hub. */
  platform?: (hub: HubBroadcaster, log: Logger) => Platform;
  log?: Logger;
  clock?: Clock;
  /** Set by the owner once the HTTP server listens (for mailroom_info). */
  port?: () => number;
  /** The port the owner tried first and why it uses another one (Settings shows it). */
  address?: () => { preferred: number; note: string | null };
  /** Restarts the owner on a new vault (set by the owner; absent in the CLI's in-process core). */
  restart?: (next: { vaultDir: string }) => void;
}

export interface Core {
  config: Config;
  log: Logger;
  hub: Hub;
  ctx: CoreContext;
  domains: Domain[];
  tools: ToolDef[];
  resourceTemplates: ResourceTemplateDef[];
  /** Every domain's named completion sources (MCP argument completion). */
  completions: Record<string, CompletionSource>;
  /** The MCP surface, built once: the HTTP transport and the stdio bridge serve this one. */
  mcp: McpSurface;
  routes: RouteDef[];
  counts(): Record<string, number>;
  /** Resolves when the vault's background index has caught up (start-up) and its watcher is ready. */
  whenIndexed(): Promise<void>;
  startedAt: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The composition root: builds every domain with explicit dependencies, in dependency order,
 * and stops them in reverse. Nothing here knows about Electron or HTTP.
 */
export async function createCore(config: Config, opts: CoreOptions = {}): Promise<Core> {
  const log = opts.log ?? createLogger({ file: path.join(config.dataDir, 'logs', 'mailroom.log'), stderr: true });
  if (config.demoVault) ensureDemoVault(config.appRoot, config.vaultDir, log);
  const hub = createHub({ log: log.child('hub') });
  const built = createCoreContext(config, hub, { log, clock: opts.clock, platform: opts.platform });
  const { ctx } = built;
  openSealedConfig(ctx);
  /** Each domain gets its own disposal scope, disposed right after its stop(). */
  const scopes = new Map<Domain, Scope>();
  const own = async <D extends Domain>(name: string, make: (c: CoreContext) => D | Promise<D>): Promise<D> => {
    const c = built.scopeFor(name);
    const d = await make(c);
    scopes.set(d, c.scope);
    return d;
  };

  const domains: Domain[] = [];
  const add = <D extends Domain>(d: D): D => {
    domains.push(d);
    return d;
  };

  // ---- domains, in dependency order; each replaces its own placeholder line ----
  const nlp = add(await own('nlp', (c) => createNlp(c))); // [nlp] on-device models (seed 004)
  const vault = add(await own('vault', (c) => createVault(c))); // [vault] vault index, watcher, git (seed 000)
  const inbox = add(await own('inbox', (c) => createInbox(c, { vault, nlp }))); // [inbox] capture, analyze / execute / undo (seed 000)
  add(await own('memory', (c) => createMemory(c, { nlp, vault }))); // [memory] analyze_message, save_memory, search_memory (seed 004)
  add(await own('sessions', (c) => createSessions(c))); // [sessions] sessions and their mailboxes (seed 003)
  const router = add(await own('router', (c) => createRouter(c, { vault, inbox }))); // [router] MCP router (seed 001)
  const mail = add(await own('mail', (c) => createMail(c, { nlp, inbox, router }))); // [mail] NeuralMail (seed 002)
  add(await own('history', (c) => createHistory(c, { vault, inbox, router, mail }))); // [history] what Mailroom did: git log + journals (through each domain's port), diffs, undo

  const startedAt = Date.now();
  const counts = () => Object.assign({}, ...domains.map((d) => d.counts?.() ?? {})) as Record<string, number>;
  const port = opts.port ?? (() => config.port);
  add(
    await own('app', (c) =>
      createAppDomain(c, {
      counts,
      port,
      startedAt,
      address: opts.address ?? (() => ({ preferred: config.port, note: null })),
      push: (url) => {
        const git = vault.git();
        if (!git) throw new MailroomError('git_not_enabled', 'The vault is not a git repository yet; set git_init: true in config.json or run git init in the vault, then restart.');
        return git.push(url);
      },
      restart: opts.restart,
      indexStatus: () => vault.indexStatus(),
      profilesStatus: () => inbox.profiles(),
      }),
    ),
  );

  const tools = domains.flatMap((d) => d.tools ?? []);
  const resourceTemplates = domains.flatMap((d) => d.resourceTemplates ?? []);
  const completions = Object.assign({}, ...domains.map((d) => d.completions ?? {})) as Record<string, CompletionSource>;
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new Error(`two domains define the MCP tool ${t.name}`);
    seen.add(t.name);
  }
  for (const d of domains) {
    for (const [name, fn] of Object.entries(d.hubMethods ?? {})) hub.register(name, fn as HubMethodHandler);
  }

  let started: Domain[] = [];
  return {
    config,
    log,
    hub,
    ctx,
    domains,
    tools,
    resourceTemplates,
    completions,
    mcp: createMcpSurface({ config, log, tools, resourceTemplates, completions, ctx }, log.child('mcp')),
    routes: domains.flatMap((d) => d.routes ?? []),
    counts,
    whenIndexed: () => vault.whenIndexed(),
    startedAt,
    async start() {
      for (const d of domains) {
        await d.start?.();
        started.push(d);
      }
      log.info('core started', { vault: config.vaultDir, dataDir: config.dataDir, domains: domains.map((d) => d.name) });
    },
    async stop() {
      for (const d of [...started].reverse()) {
        try {
          await d.stop?.();
        } catch (e) {
          log.error('domain failed to stop', { domain: d.name, error: String(e) });
        }
        await scopes.get(d)?.dispose();
      }
      started = [];
      await hub.stop();
      await built.close();
      log.info('core stopped');
    },
  };
}

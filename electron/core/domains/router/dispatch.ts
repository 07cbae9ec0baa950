import crypto from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MailroomError } from '../../kernel/errors';
import { redact } from '../../kernel/log';
import type { CoreContext, JsonObject, ToolContext } from '../../kernel/types';
import { matches } from './conditions';
import { ToolCallError, classify } from './errors';
import { resolveItem } from './item';
import { llmMap, openAiLlm, samplingLlm, type LlmAttempt, type LlmClient } from './mapping/llm';
import { templateMap } from './mapping/template';
import { SchemaValidator, type Validation } from './mapping/validate';
import { ClientPool, scrub } from './pool';
import { ToolRegistry, type ToolInfo } from './registry';
import { RouterStore } from './store';
import { adapterSecrets } from './secrets';
import type { Adapter, DistributionRow, InboxLike, RoutableItem, Route, VaultLike } from './types';
import type { RouterCatalog } from './catalog';
import { HubEvent } from '../../../../shared/contract/hub';
import type { Route as RouteDto } from '../../../../shared/contract/router';

const RESULT_LIMIT = 20_000;

export interface RouterDeps {
  vault?: VaultLike;
  inbox?: InboxLike;
  /** Backoff before retry n (ms); the seed's 1 s, 2 s, 4 s by default; the last repeats. */
  backoffMs?: number[];
  /** The LLM for `llm` routes when the caller offers no sampling (default: config.file.llm). */
  llm?: LlmClient;
  maxRestarts?: number;
}


export interface Prepared {
  route: RouteDto;
  tool: ToolInfo | null;
  args: JsonObject | null;
  validation: Validation;
  mapper: string;
  reasoning?: string;
  llm_attempts?: LlmAttempt[];
  error?: { code: string; message: string };
}

export interface AttemptDto {
  attempt: number;
  status: 'ok' | 'error';
  retryable: boolean;
  error: string | null;
  duration_ms: number;
}

export interface RouteItemResult {
  status: 'ok' | 'failed' | 'unrouted' | 'dry_run';
  run_id: string | null;
  item: RoutableItem;
  /** The routes whose condition the item met, in the order they would be tried. */
  candidates: Array<{ id: string; name: string }>;
  matched: { id: string; name: string; adapter_id: string; tool: string } | null;
  args: JsonObject | null;
  validation: Validation | null;
  mapper: string | null;
  result: unknown;
  attempts: AttemptDto[];
  error: { code: string; message: string } | null;
  /** Routes passed over because their arguments could not be built (nothing was sent). */
  skipped: Array<{ id: string; name: string; reason: string }>;
}


/**
 * The router's behaviour over its store, pool, registry and mappers: adapter and route
 * management, previews, and distribution with retries (the seed's UnifiedRouteAdapter).
 */

/**
 * Routing an item: the policy (which routes an item meets, how its arguments are mapped and
 * validated) and the transport (calling the target tool with timeouts, retries and backoff),
 * with each attempt logged as a distribution.
 */
export class RouterDispatch {
  readonly validator = new SchemaValidator();
  private readonly registryInflight = new Map<string, Promise<ToolInfo>>();

  constructor(
    private readonly ctx: CoreContext,
    private readonly catalog: RouterCatalog,
    private readonly deps: RouterDeps,
    private readonly backoff: number[],
  ) {}

  private get store(): RouterStore {
    return this.catalog.store;
  }

  private get pool(): ClientPool {
    return this.catalog.pool;
  }

  private get registry(): ToolRegistry {
    return this.catalog.registry;
  }

  private routeDto(r: Route): RouteDto {
    return this.catalog.routeDto(r);
  }

  // ---- mapping and distribution ----

  private secretsOf(a: Adapter): string[] {
    return adapterSecrets(a);
  }

  /** Arguments and results as they may be stored or shown: secret-looking keys and secret values removed. */
  private redacted(v: unknown, secrets: string[]): unknown {
    if (v === undefined) return undefined;
    let text = JSON.stringify(redact(v, 0));
    if (text === undefined) return null;
    text = scrub(text, secrets.map((s) => JSON.stringify(s).slice(1, -1)));
    if (text.length > RESULT_LIMIT) return { truncated: true, text: text.slice(0, RESULT_LIMIT) };
    return JSON.parse(text) as unknown;
  }

  private llmFor(tctx?: ToolContext): LlmClient | undefined {
    if (tctx?.sample) return samplingLlm(tctx.sample);
    if (this.deps.llm) return this.deps.llm;
    const cfg = this.ctx.config.file.llm;
    return cfg ? openAiLlm(cfg) : undefined;
  }

  /**
   * The route's tool from the registry. Concurrent lookups share one; a server that fails to
   * start is retried with the same backoff as calls (each start counts towards its restarts).
   */
  private async toolInfo(adapterId: string, tool: string, signal?: AbortSignal): Promise<ToolInfo> {
    const key = `${adapterId}\u0000${tool}`;
    let p = this.registryInflight.get(key);
    if (!p) {
      p = (async () => {
        const maxRetries = this.store.adapter(adapterId).max_retries;
        for (let attempt = 1; ; attempt++) {
          try {
            return await this.registry.get(adapterId, tool);
          } catch (e) {
            if (!classify(e).retryable || attempt > maxRetries || signal?.aborted) throw e;
            await this.ctx.clock.sleep(this.backoff[Math.min(attempt - 1, this.backoff.length - 1)] ?? 0, signal);
          }
        }
      })().finally(() => this.registryInflight.delete(key));
      this.registryInflight.set(key, p);
    }
    return p;
  }

  /** Builds and checks the arguments a route would send for an item (no tool call). */
  async prepare(route: Route, item: RoutableItem, tctx?: ToolContext): Promise<Prepared> {
    let tool: ToolInfo;
    try {
      tool = await this.toolInfo(route.adapter_id, route.tool, tctx?.signal);
    } catch (e) {
      const c = classify(e);
      const code = e instanceof MailroomError ? e.code : c.code;
      return { route: this.routeDto(route), tool: null, args: null, validation: { valid: false, errors: [] }, mapper: route.mapper, error: { code, message: c.message } };
    }
    if (!route.tool_schema_hash) this.store.setRouteSchema(route.id, tool.inputSchema, tool.hash);
    const dto = this.routeDto(this.store.route(route.id));
    const deterministic = () => templateMap(route.mapping, tool.inputSchema, item, this.ctx.clock.now());
    const validate = (args: JsonObject) => this.validator.validate(tool.inputSchema, args);
    try {
      if (route.mapper === 'llm') {
        const r = await llmMap({
          llm: this.llmFor(tctx),
          item,
          instructions: route.instructions,
          tool: route.tool,
          schema: tool.inputSchema,
          validate,
          allowFallback: route.allow_fallback,
          fallback: deterministic,
        });
        return { route: dto, tool, args: r.args, validation: validate(r.args), mapper: r.mapper, reasoning: r.reasoning, llm_attempts: r.attempts };
      }
      const args = deterministic();
      return { route: dto, tool, args, validation: validate(args), mapper: route.mapping ? 'template' : 'schema-defaults' };
    } catch (e) {
      const c = classify(e);
      return { route: dto, tool, args: null, validation: { valid: false, errors: [] }, mapper: route.mapper, error: { code: e instanceof MailroomError ? e.code : c.code, message: c.message } };
    }
  }

  async resolve(input: { path?: string; item?: unknown }): Promise<RoutableItem> {
    return resolveItem(input, { vault: this.deps.vault, inbox: this.deps.inbox, vaultDir: this.ctx.config.vaultDir });
  }

  /** Routes whose condition the item meets, in the order distribution tries them. */
  candidates(item: RoutableItem): Route[] {
    return this.store.listRoutes().filter((r) => r.enabled && matches(r.condition, item));
  }

  async preview(routeId: string, input: { path?: string; item?: unknown }, tctx?: ToolContext): Promise<Prepared & { item: RoutableItem; condition_met: boolean }> {
    const route = this.store.route(routeId);
    const item = await this.resolve(input);
    const p = await this.prepare(route, item, tctx);
    return { ...p, item, condition_met: matches(route.condition, item) };
  }

  private log(row: Omit<DistributionRow, 'id' | 'created_at'>): DistributionRow {
    const r = this.store.logDistribution(row);
    this.ctx.hub.broadcast(HubEvent.routerDistribution, r);
    return r;
  }

  /**
   * Distributes an item (the seed's rules): matching enabled routes in descending priority, ties
   * by creation time. A route whose arguments cannot be built is skipped (nothing was sent) and
   * the next one is tried; the first route that is called decides the outcome: success stops,
   * and a failure after its retries (or a non-retryable one at once) marks the distribution
   * failed without trying lower routes — the item may have partly reached the first target.
   * `routeId` forces one route (the Test button), whether or not its condition holds.
   */
  async routeItem(input: { path?: string; item?: unknown }, opts: { dryRun?: boolean; routeId?: string; toolContext?: ToolContext } = {}): Promise<RouteItemResult> {
    const item = await this.resolve(input);
    const routes = opts.routeId ? [this.store.route(opts.routeId)] : this.candidates(item);
    const base: RouteItemResult = {
      status: 'unrouted',
      run_id: null,
      item,
      candidates: routes.map((r) => ({ id: r.id, name: r.name })),
      matched: null,
      args: null,
      validation: null,
      mapper: null,
      result: null,
      attempts: [],
      error: null,
      skipped: [],
    };
    if (!routes.length) return { ...base, error: { code: 'no_route', message: 'No enabled route matches this item. Add one on the Routes page, or check the conditions.' } };
    const runId = `run_${crypto.randomBytes(6).toString('hex')}`;
    const itemKey = item.path ?? `item:${crypto.createHash('sha256').update(item.title + '\n' + item.content).digest('hex').slice(0, 12)}`;
    for (const route of routes) {
      const p = await this.prepare(route, item, opts.toolContext);
      const matched = { id: route.id, name: route.name, adapter_id: route.adapter_id, tool: route.tool };
      const problem = p.error?.message ?? (p.validation.valid ? null : `The arguments do not match the tool's input schema: ${p.validation.errors.join('; ')}`);
      if (opts.dryRun) {
        return { ...base, status: 'dry_run', matched, args: p.args, validation: p.validation, mapper: p.mapper, error: problem ? { code: p.error?.code ?? 'invalid_arguments', message: problem } : null };
      }
      let adapter: Adapter;
      try {
        adapter = this.store.adapter(route.adapter_id);
      } catch {
        continue;
      }
      const secrets = this.secretsOf(adapter);
      if (problem || !p.args) {
        const reason = scrub(problem ?? 'no arguments', secrets);
        base.skipped.push({ id: route.id, name: route.name, reason });
        this.log({ run_id: runId, item_key: itemKey, item_title: item.title, route_id: route.id, route_name: route.name, adapter_id: route.adapter_id, tool: route.tool, attempt: 0, status: 'skipped', retryable: false, args: this.redacted(p.args ?? undefined, secrets) ?? null, result: null, error: reason, duration_ms: 0 });
        continue;
      }
      const sent = await this.callWithRetry(adapter, route, p.args, { runId, itemKey, item, signal: opts.toolContext?.signal });
      return { ...base, run_id: runId, status: sent.ok ? 'ok' : 'failed', matched, args: this.redacted(p.args, secrets) as JsonObject, validation: p.validation, mapper: p.mapper, result: sent.result, attempts: sent.attempts, error: sent.error };
    }
    return {
      ...base,
      run_id: runId,
      status: 'failed',
      error: { code: 'no_route_could_map', message: `No matching route could build valid arguments: ${base.skipped.map((s) => `${s.name}: ${s.reason}`).join(' | ')}` },
    };
  }

  private async callWithRetry(
    adapter: Adapter,
    route: Route,
    args: JsonObject,
    run: { runId: string; itemKey: string; item: RoutableItem; signal?: AbortSignal },
  ): Promise<{ ok: boolean; result: unknown; attempts: AttemptDto[]; error: { code: string; message: string } | null }> {
    const secrets = this.secretsOf(adapter);
    const storedArgs = this.redacted(args, secrets);
    const attempts: AttemptDto[] = [];
    const clock = this.ctx.clock;
    for (let attempt = 1; ; attempt++) {
      const t0 = performance.now();
      try {
        const r = (await this.pool.withClient(adapter.id, (c) =>
          c.callTool({ name: route.tool, arguments: args }, undefined, { timeout: adapter.call_timeout_s * 1000, signal: run.signal }),
        )) as CallToolResult;
        if (r.isError) {
          const text = (r.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join(' ').trim();
          throw new ToolCallError(text || 'the tool reported an error without a message', r.content);
        }
        const result = this.redacted(r.structuredContent ?? r.content, secrets);
        const ms = performance.now() - t0;
        this.log({ run_id: run.runId, item_key: run.itemKey, item_title: run.item.title, route_id: route.id, route_name: route.name, adapter_id: adapter.id, tool: route.tool, attempt, status: 'ok', retryable: false, args: storedArgs, result, error: null, duration_ms: ms });
        attempts.push({ attempt, status: 'ok', retryable: false, error: null, duration_ms: Math.round(ms) });
        return { ok: true, result, attempts, error: null };
      } catch (e) {
        const c = classify(e);
        const message = scrub(c.message, secrets);
        const ms = performance.now() - t0;
        const last = !c.retryable || attempt > adapter.max_retries || run.signal?.aborted;
        this.log({ run_id: run.runId, item_key: run.itemKey, item_title: run.item.title, route_id: route.id, route_name: route.name, adapter_id: adapter.id, tool: route.tool, attempt, status: 'error', retryable: c.retryable, args: storedArgs, result: e instanceof ToolCallError ? this.redacted(e.content, secrets) : null, error: message, duration_ms: ms });
        attempts.push({ attempt, status: 'error', retryable: c.retryable, error: message, duration_ms: Math.round(ms) });
        if (last) {
          const code = e instanceof MailroomError ? e.code : c.code;
          const why = c.retryable ? `still failing after ${attempt} attempts` : 'not retryable';
          return { ok: false, result: null, attempts, error: { code, message: `${route.name} → ${adapter.name}/${route.tool} failed (${why}): ${message}` } };
        }
        await clock.sleep(this.backoff[Math.min(attempt - 1, this.backoff.length - 1)] ?? 0, run.signal);
      }
    }
  }
}

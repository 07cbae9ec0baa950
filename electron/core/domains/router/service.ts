import crypto from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MailroomError, invalidArgument } from '../../kernel/errors';
import { redact } from '../../kernel/log';
import { parseWith } from '../../kernel/tool';
import type { CoreContext, JsonObject, ToolContext } from '../../kernel/types';
import { describeCondition, matches, parseCondition } from './conditions';
import { resolveCommand } from './command';
import { AdapterInput, ReorderInput as ReorderBody, RouteInput, type AdapterInputT } from './contract';
import { ToolCallError, classify } from './errors';
import { resolveItem } from './item';
import { llmMap, openAiLlm, samplingLlm, type LlmAttempt, type LlmClient } from './mapping/llm';
import { templateMap } from './mapping/template';
import { SchemaValidator, type Validation } from './mapping/validate';
import { ClientPool, scrub } from './pool';
import { ToolRegistry, type ToolInfo } from './registry';
import { RouterStore, type DistributionFilter } from './store';
import { SECRET_MASK, adapterSecrets, decodeParamName, detectSecretArgs, detectSecretParams, looksSecret, maskArgs, maskUrl, splitUrl } from './secrets';
import type { Adapter, AdapterStatus, DistributionRow, InboxLike, KeyValue, RoutableItem, Route, VaultLike } from './types';

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

/** The wire shapes are the shared contract's (renderer and owner use the same definitions). */
export type { Adapter as AdapterDto, Route as RouteDto } from '../../../../shared/contract/router';
import { HubEvent } from '../../../../shared/contract/hub';
import type { Adapter as AdapterDto, Route as RouteDto } from '../../../../shared/contract/router';

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

const kvDto = (kvs: KeyValue[]): KeyValue[] => kvs.map((kv) => ({ key: kv.key, secret: kv.secret, value: kv.secret ? (kv.value ? SECRET_MASK : '') : kv.value }));

/**
 * The router's behaviour over its store, pool, registry and mappers: adapter and route
 * management, previews, and distribution with retries (the seed's UnifiedRouteAdapter).
 */
export class RouterService {
  readonly store: RouterStore;
  readonly pool: ClientPool;
  readonly registry: ToolRegistry;
  readonly validator = new SchemaValidator();
  private readonly backoff: number[];
  private readonly registryInflight = new Map<string, Promise<ToolInfo>>();

  constructor(
    private readonly ctx: CoreContext,
    private readonly deps: RouterDeps = {},
  ) {
    this.store = new RouterStore(ctx.stateDb, ctx.platform.secrets, ctx.clock);
    this.pool = new ClientPool({
      clock: ctx.clock,
      log: ctx.log.child('router'),
      version: ctx.config.version,
      adapter: (id) => this.store.adapter(id),
      onStatus: (s) => ctx.hub.broadcast(HubEvent.routerAdapterStatus, s),
      onRestart: (id) => this.registry.invalidate(id),
      maxRestarts: deps.maxRestarts,
    });
    this.registry = new ToolRegistry(this.pool, ctx.clock);
    const cfgBackoff = (ctx.config.file as { router?: { backoff_ms?: unknown } }).router?.backoff_ms;
    this.backoff = deps.backoffMs ?? (Array.isArray(cfgBackoff) && cfgBackoff.every((n) => typeof n === 'number') ? (cfgBackoff as number[]) : [1000, 2000, 4000]);
  }

  // ---- adapters ----

  private adapterFields(input: AdapterInputT) {
    const kv = (list: AdapterInputT['env']): KeyValue[] => {
      const seen = new Set<string>();
      return list.map((e) => {
        if (seen.has(e.key)) throw invalidArgument(`"${e.key}" is listed twice; keep one.`);
        seen.add(e.key);
        return { key: e.key, value: e.value, secret: e.secret ?? looksSecret(e.key) };
      });
    };
    if (input.transport === 'stdio' && !input.command) throw invalidArgument('A stdio adapter needs a command (the program that starts the MCP server).');
    if (input.transport === 'http' && !input.url) throw invalidArgument('An http adapter needs the server URL (Streamable HTTP), e.g. http://127.0.0.1:3000/mcp.');
    const args = input.transport === 'stdio' ? input.args : [];
    const detected = detectSecretArgs(args);
    const url = input.transport === 'http' ? (input.url ?? null) : null;
    const params = url ? splitUrl(url).params : [];
    const urlSecrets = [
      ...new Set([
        ...(url ? detectSecretParams(url) : []),
        ...(input.url_secrets ?? []),
        ...params.filter((p) => p.value === SECRET_MASK || p.value === encodeURIComponent(SECRET_MASK)).map((p) => decodeParamName(p.name)),
      ]),
    ].filter((n) => !(input.url_public ?? []).includes(n));
    return {
      name: input.name,
      transport: input.transport,
      command: input.transport === 'stdio' ? (input.command ?? null) : null,
      args,
      arg_secrets: args.map((a, i) => input.arg_secrets?.[i] ?? (detected[i] || a.endsWith(SECRET_MASK))),
      env: input.transport === 'stdio' ? kv(input.env) : [],
      url,
      url_secrets: urlSecrets,
      headers: input.transport === 'http' ? kv(input.headers) : [],
      idle_timeout_s: input.idle_timeout_s,
      max_retries: input.max_retries,
      call_timeout_s: input.call_timeout_s,
    };
  }

  commandProblem(a: Adapter): string | null {
    if (a.transport !== 'stdio') return null;
    try {
      const path = a.env.find((e) => e.key === 'PATH')?.value;
      resolveCommand(a.command ?? '', path ?? process.env.PATH);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  }

  adapterDto(a: Adapter): AdapterDto {
    const routes = this.store.listRoutes().filter((r) => r.adapter_id === a.id).length;
    return {
      ...a,
      args: maskArgs(a.args, a.arg_secrets),
      env: kvDto(a.env),
      url: a.url === null ? null : maskUrl(a.url, a.url_secrets),
      headers: kvDto(a.headers),
      status: this.pool.status(a.id),
      command_problem: this.commandProblem(a),
      routes,
    };
  }

  listAdapters(): AdapterDto[] {
    return this.store.listAdapters().map((a) => this.adapterDto(a));
  }

  createAdapter(body: unknown): AdapterDto {
    const a = this.store.createAdapter(this.adapterFields(parseWith(AdapterInput, body, 'adapter')));
    this.ctx.log.child('router').info('adapter created', { id: a.id, name: a.name, transport: a.transport });
    return this.adapterDto(a);
  }

  async updateAdapter(id: string, body: unknown): Promise<AdapterDto> {
    const a = this.store.updateAdapter(id, this.adapterFields(parseWith(AdapterInput, body, 'adapter')));
    // New settings take effect on the next start; a failed adapter gets a fresh chance.
    await this.pool.reset(id);
    this.registry.invalidate(id);
    return this.adapterDto(a);
  }

  async deleteAdapter(id: string): Promise<void> {
    this.store.deleteAdapter(id);
    await this.pool.remove(id);
    this.registry.invalidate(id);
  }

  /** Test connection: a fresh start, tools/list, and what the server offers. */
  async testAdapter(id: string): Promise<{ ok: boolean; tools: ToolInfo[]; status: AdapterStatus; error: { code: string; message: string } | null; duration_ms: number }> {
    const a = this.store.adapter(id);
    const t0 = this.ctx.clock.now();
    await this.pool.reset(id);
    try {
      const tools = await this.registry.list(id, { refresh: true });
      return { ok: true, tools, status: this.pool.status(id), error: null, duration_ms: this.ctx.clock.now() - t0 };
    } catch (e) {
      const c = classify(e);
      const secrets = this.secretsOf(a);
      return { ok: false, tools: [], status: this.pool.status(id), error: { code: e instanceof MailroomError ? e.code : c.code, message: scrub(c.message, secrets) }, duration_ms: this.ctx.clock.now() - t0 };
    }
  }

  async tools(id: string, refresh = false): Promise<ToolInfo[]> {
    this.store.adapter(id);
    return this.registry.list(id, { refresh });
  }

  // ---- routes ----

  routeDto(r: Route): RouteDto {
    const peek = this.registry.peek(r.adapter_id, r.tool);
    let adapterName: string | null = null;
    try {
      adapterName = this.store.adapter(r.adapter_id).name;
    } catch {
      /* deleted under us */
    }
    return {
      ...r,
      adapter_name: adapterName,
      condition_text: describeCondition(r.condition),
      schema_drift: peek && r.tool_schema_hash ? peek.hash !== r.tool_schema_hash : null,
      current_schema_hash: peek?.hash ?? null,
    };
  }

  listRoutes(): RouteDto[] {
    return this.store.listRoutes().map((r) => this.routeDto(r));
  }

  /** The tool's schema now, if the server can be reached; a route is saved either way. */
  private async tryTool(adapterId: string, tool: string): Promise<ToolInfo | null> {
    try {
      return await this.registry.get(adapterId, tool);
    } catch {
      return null;
    }
  }

  private routeFields(body: unknown) {
    const i = parseWith(RouteInput, body, 'route');
    const condition = parseCondition(i.condition);
    this.store.adapter(i.adapter_id);
    if (i.mapper === 'llm' && !i.instructions.trim()) throw invalidArgument('An LLM route needs processing instructions: say in plain words how to turn the item into the tool\'s arguments.');
    return { ...i, condition, priority: i.priority ?? 0, mapping: (i.mapping ?? null) as JsonObject | null };
  }

  async createRoute(body: unknown): Promise<RouteDto> {
    const f = this.routeFields(body);
    if ((body as { priority?: unknown }).priority === undefined) {
      // New routes go last: below every existing priority.
      const min = Math.min(0, ...this.store.listRoutes().map((r) => r.priority));
      f.priority = this.store.listRoutes().length ? min - 10 : 0;
    }
    const t = await this.tryTool(f.adapter_id, f.tool);
    return this.routeDto(this.store.createRoute(f, t ? { schema: t.inputSchema, hash: t.hash } : undefined));
  }

  async updateRoute(id: string, body: unknown): Promise<RouteDto> {
    const prev = this.store.route(id);
    const f = this.routeFields({ priority: prev.priority, ...(body as object) });
    // Saving a route accepts the tool's current schema as its new baseline (clears drift).
    const t = await this.tryTool(f.adapter_id, f.tool);
    return this.routeDto(this.store.updateRoute(id, f, t ? { schema: t.inputSchema, hash: t.hash } : undefined));
  }

  deleteRoute(id: string): void {
    this.store.deleteRoute(id);
  }

  reorder(body: unknown): RouteDto[] {
    return this.store.reorder(parseWith(ReorderBody, body, 'order').ids).map((r) => this.routeDto(r));
  }

  /** Re-reads the route's tool schema from the server; reports drift against the saved one. */
  async checkRoute(id: string): Promise<RouteDto> {
    const r = this.store.route(id);
    await this.registry.get(r.adapter_id, r.tool, { refresh: true });
    return this.routeDto(r);
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
            await this.ctx.clock.sleep(this.backoff[Math.min(attempt - 1, this.backoff.length - 1)], signal);
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
        await clock.sleep(this.backoff[Math.min(attempt - 1, this.backoff.length - 1)], run.signal);
      }
    }
  }

  distributions(query: URLSearchParams | DistributionFilter): DistributionRow[] {
    if (!(query instanceof URLSearchParams)) return this.store.distributions(query);
    const status = query.get('status') || undefined;
    if (status && !['ok', 'error', 'skipped'].includes(status)) throw invalidArgument('status must be ok, error or skipped.');
    return this.store.distributions({
      route_id: query.get('route_id') || undefined,
      adapter_id: query.get('adapter_id') || undefined,
      status: status as DistributionFilter['status'],
      item: query.get('item') || undefined,
      run_id: query.get('run_id') || undefined,
      limit: query.get('limit') ? Number(query.get('limit')) : undefined,
      before_id: query.get('before_id') ? Number(query.get('before_id')) : undefined,
    });
  }

  statuses(): AdapterStatus[] {
    return this.store.listAdapters().map((a) => this.pool.status(a.id));
  }

  async stop(): Promise<void> {
    await this.pool.stop();
  }
}

import { MailroomError, invalidArgument } from '../../kernel/errors';
import { parseWith } from '../../kernel/tool';
import type { CoreContext, JsonObject } from '../../kernel/types';
import { describeCondition, parseCondition } from './conditions';
import { resolveCommand } from './command';
import { AdapterInput, ReorderInput as ReorderBody, RouteInput, type AdapterInputT } from './contract';
import { classify } from './errors';
import { ClientPool, scrub } from './pool';
import { ToolRegistry, type ToolInfo } from './registry';
import { RouterStore, type DistributionFilter } from './store';
import { SECRET_MASK, adapterSecrets, decodeParamName, detectSecretArgs, detectSecretParams, looksSecret, maskArgs, maskUrl, splitUrl } from './secrets';
import type { Adapter, AdapterStatus, DistributionRow, KeyValue, Route } from './types';
import type { Adapter as AdapterDto, Route as RouteDto } from '../../../../shared/contract/router';

/**
 * The router's configuration: adapters and routes as stored, their wire shapes (secrets masked,
 * live status, schema drift) and the tool schemas their servers offer. No routing happens here.
 */
export class RouterCatalog {
  constructor(
    private readonly ctx: CoreContext,
    readonly store: RouterStore,
    readonly pool: ClientPool,
    readonly registry: ToolRegistry,
  ) {}

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

  /** The routing log, newest first (the REST query is parsed by the contract's DistributionsQuery). */
  distributions(filter: DistributionFilter): DistributionRow[] {
    return this.store.distributions(filter);
  }

  statuses(): AdapterStatus[] {
    return this.store.listAdapters().map((a) => this.pool.status(a.id));
  }

  private secretsOf(a: Adapter): string[] {
    return adapterSecrets(a);
  }
}

const kvDto = (kvs: KeyValue[]): KeyValue[] => kvs.map((kv) => ({ key: kv.key, secret: kv.secret, value: kv.secret ? (kv.value ? SECRET_MASK : '') : kv.value }));

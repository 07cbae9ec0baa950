import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import { MailroomError, invalidArgument, notFound } from '../../kernel/errors';
import type { Clock, JsonObject, JsonSchema, SecretBox } from '../../kernel/types';
import { parseCondition } from './conditions';
import type { Adapter, DistributionRow, KeyValue, Mapper, Route, Transport } from './types';
import { SECRET_MASK, decodeParamName, detectSecretArgs, detectSecretParams, joinUrl, looksSecret, maskArg, splitUrl } from './secrets';
import { countRows } from '../../kernel/db';

export { SECRET_MASK };

export const ADAPTER_NOT_FOUND = 'adapter_not_found';
export const ROUTE_NOT_FOUND = 'route_not_found';

/** How a stored env/header entry looks: plain `value`, or `sealed` for secrets. */
interface StoredKv {
  key: string;
  secret: boolean;
  value?: string;
  sealed?: string;
}

/** A stored argument: plain, or sealed when secret. */
type StoredArg = string | { secret: true; sealed: string };

/** A sealed URL query parameter value (the url column keeps the mask in its place). */
interface StoredParam {
  name: string;
  sealed: string;
}

// The names migration 004's code treated as secret; a name only the new rule catches was stored in
// clear by older versions and is sealed on start (upgradeSecrets).
const OLD_SECRET_KEY = /(token|secret|password|passwd|authorization|auth|api[_-]?key|key|cookie|credential|private)/i;

const isMask = (v: string): boolean => v === SECRET_MASK || v === encodeURIComponent(SECRET_MASK);

interface AdapterRow {
  id: string;
  name: string;
  transport: Transport;
  command: string | null;
  args: string;
  env: string;
  url: string | null;
  headers: string;
  /** Migration 006: sealed values of secret URL query parameters. */
  url_secrets: string;
  idle_timeout_s: number;
  max_retries: number;
  call_timeout_s: number;
  created_at: string;
  updated_at: string;
}

interface RouteRow {
  id: string;
  name: string;
  enabled: number;
  priority: number;
  trigger_conditions: string;
  adapter_id: string;
  target_tool_name: string;
  mapper: Mapper;
  mapping: string | null;
  processing_instructions: string;
  allow_fallback: number;
  tool_schema_cache: string | null;
  tool_schema_hash: string | null;
  created_at: string;
  updated_at: string;
}

interface DistRow {
  id: number;
  run_id: string;
  item_key: string;
  item_title: string;
  route_id: string | null;
  route_name: string | null;
  adapter_id: string | null;
  tool: string | null;
  attempt: number;
  status: 'ok' | 'error' | 'skipped';
  retryable: number;
  args: string | null;
  result: string | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
}

/** What a person sets on an adapter: everything but its id and timestamps. */
export type AdapterFields = Omit<Adapter, 'id' | 'created_at' | 'updated_at'>;

/** What a person sets on a route: everything but its id, timestamps and the cached tool schema. */
export type RouteFields = Omit<Route, 'id' | 'tool_schema' | 'tool_schema_hash' | 'created_at' | 'updated_at'>;

export interface DistributionFilter {
  route_id?: string;
  adapter_id?: string;
  status?: 'ok' | 'error' | 'skipped';
  item?: string;
  run_id?: string;
  limit?: number;
  before_id?: number;
}

const newId = (prefix: string) => `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
const json = <T>(s: string | null, fallback: T): T => (s === null || s === '' ? fallback : (JSON.parse(s) as T));

/** SQLite persistence for adapters, routes and the distribution log. Secrets are sealed here. */
export class RouterStore {
  constructor(
    readonly db: Database.Database,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** False until migration 004 is in the state DB (the domain stays inert, not fatal). */
  ready(): boolean {
    return !!this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'distributions'").get();
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  // ---- adapters ----

  private seal(kvs: KeyValue[], previous: StoredKv[] = []): string {
    const out: StoredKv[] = kvs.map((kv) => {
      if (!kv.secret) return { key: kv.key, secret: false, value: kv.value };
      // A masked or empty secret coming back from the UI means "unchanged".
      if (kv.value === '' || kv.value === SECRET_MASK) {
        const prev = previous.find((p) => p.key === kv.key && p.secret && p.sealed);
        if (prev) return { key: kv.key, secret: true, sealed: prev.sealed };
        if (kv.value === SECRET_MASK) throw invalidArgument(`The secret ${kv.key} has no stored value yet; type the value.`);
      }
      return { key: kv.key, secret: true, sealed: this.secrets.encrypt(kv.value) };
    });
    return JSON.stringify(out);
  }

  private sealArgs(args: string[], secret: boolean[], previous: StoredArg[] = []): string {
    const prev = previous.map((a, i) => ({ i, secret: typeof a !== 'string', value: typeof a === 'string' ? a : this.secrets.decrypt(a.sealed), sealed: typeof a === 'string' ? undefined : a.sealed }));
    const used = new Set<number>();
    const out: StoredArg[] = args.map((arg, i) => {
      if (!secret[i]) return arg;
      if (arg.endsWith(SECRET_MASK)) {
        // A masked argument coming back from the UI: the stored secret it stands for (same place,
        // else same flag before it, else the next unused one that masks the same way).
        const candidates = prev.filter((p) => p.secret && !used.has(p.i) && maskArg(p.value) === arg);
        const pick =
          candidates.find((p) => p.i === i) ??
          candidates.find((p) => i > 0 && p.i > 0 && typeof previous[p.i - 1] === 'string' && previous[p.i - 1] === args[i - 1]) ??
          candidates[0];
        if (!pick) throw invalidArgument(`Argument ${i + 1} is a masked secret with no stored value; type the value.`);
        used.add(pick.i);
        return { secret: true, sealed: pick.sealed! };
      }
      return { secret: true, sealed: this.secrets.encrypt(arg) };
    });
    return JSON.stringify(out);
  }

  private unsealArgs(s: string): { args: string[]; arg_secrets: boolean[] } {
    const stored = json<StoredArg[]>(s, []);
    return {
      args: stored.map((a) => (typeof a === 'string' ? a : this.secrets.decrypt(a.sealed))),
      arg_secrets: stored.map((a) => typeof a !== 'string'),
    };
  }

  /** The URL as stored (secret parameter values masked) and the sealed values. */
  private sealUrl(url: string | null, names: string[], previous: StoredParam[] = []): { url: string | null; sealed: string } {
    if (url === null || !names.length) return { url, sealed: '[]' };
    const parts = splitUrl(url);
    const sealed: StoredParam[] = [];
    for (const p of parts.params) {
      const name = decodeParamName(p.name);
      if (!names.includes(name) || p.value === '' || sealed.some((x) => x.name === name)) continue;
      if (isMask(p.value)) {
        const prev = previous.find((x) => x.name === name);
        if (!prev) throw invalidArgument(`The URL parameter ${name} is a masked secret with no stored value; type the value.`);
        sealed.push(prev);
      } else sealed.push({ name, sealed: this.secrets.encrypt(p.value) });
    }
    const kept = sealed.map((x) => x.name);
    return { url: joinUrl({ ...parts, params: parts.params.map((p) => (kept.includes(decodeParamName(p.name)) && p.value !== '' ? { name: p.name, value: SECRET_MASK } : p)) }), sealed: JSON.stringify(sealed) };
  }

  private unsealUrl(url: string | null, s: string): { url: string | null; url_secrets: string[] } {
    const sealed = json<StoredParam[]>(s, []);
    if (url === null || !sealed.length) return { url, url_secrets: [] };
    const parts = splitUrl(url);
    const params = parts.params.map((p) => {
      const hit = sealed.find((x) => x.name === decodeParamName(p.name));
      return hit && isMask(p.value) ? { name: p.name, value: this.secrets.decrypt(hit.sealed) } : p;
    });
    return { url: joinUrl({ ...parts, params }), url_secrets: sealed.map((x) => x.name) };
  }

  private unseal(s: string): KeyValue[] {
    return json<StoredKv[]>(s, []).map((kv) => ({
      key: kv.key,
      secret: kv.secret,
      value: kv.secret ? (kv.sealed ? this.secrets.decrypt(kv.sealed) : '') : (kv.value ?? ''),
    }));
  }

  private toAdapter(r: AdapterRow): Adapter {
    return {
      id: r.id,
      name: r.name,
      transport: r.transport,
      command: r.command,
      ...this.unsealArgs(r.args),
      env: this.unseal(r.env),
      ...this.unsealUrl(r.url, r.url_secrets ?? '[]'),
      headers: this.unseal(r.headers),
      idle_timeout_s: r.idle_timeout_s,
      max_retries: r.max_retries,
      call_timeout_s: r.call_timeout_s,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }

  /** The raw stored JSON of an adapter's env (tests prove secrets are sealed at rest). */
  rawAdapterRow(id: string): AdapterRow | undefined {
    return this.db.prepare<unknown[], AdapterRow>('SELECT * FROM mcp_adapters WHERE id = ?').get(id);
  }

  listAdapters(): Adapter[] {
    return (this.db.prepare('SELECT * FROM mcp_adapters ORDER BY name COLLATE NOCASE').all() as AdapterRow[]).map((r) => this.toAdapter(r));
  }

  adapter(id: string): Adapter {
    const r = this.rawAdapterRow(id);
    if (!r) throw notFound(`No MCP adapter with id ${id}. List them with GET /api/mcp-adapters.`, { id }, ADAPTER_NOT_FOUND);
    return this.toAdapter(r);
  }

  createAdapter(f: AdapterFields): Adapter {
    const id = newId('ad');
    const at = this.now();
    const u = this.sealUrl(f.url, f.url_secrets);
    this.guardName(() =>
      this.db
        .prepare(
          `INSERT INTO mcp_adapters (id, name, transport, command, args, env, url, headers, url_secrets, idle_timeout_s, max_retries, call_timeout_s, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(id, f.name, f.transport, f.command, this.sealArgs(f.args, f.arg_secrets), this.seal(f.env), u.url, this.seal(f.headers), u.sealed, f.idle_timeout_s, f.max_retries, f.call_timeout_s, at, at),
      f.name,
    );
    return this.adapter(id);
  }

  updateAdapter(id: string, f: AdapterFields, opts: { touch?: boolean } = {}): Adapter {
    const prev = this.rawAdapterRow(id);
    if (!prev) this.adapter(id);
    const u = this.sealUrl(f.url, f.url_secrets, json<StoredParam[]>(prev!.url_secrets ?? '[]', []));
    this.guardName(
      () =>
        this.db
          .prepare(
            `UPDATE mcp_adapters SET name = ?, transport = ?, command = ?, args = ?, env = ?, url = ?, headers = ?, url_secrets = ?, idle_timeout_s = ?, max_retries = ?, call_timeout_s = ?, updated_at = ? WHERE id = ?`,
          )
          .run(
            f.name,
            f.transport,
            f.command,
            this.sealArgs(f.args, f.arg_secrets, json<StoredArg[]>(prev!.args, [])),
            this.seal(f.env, json<StoredKv[]>(prev!.env, [])),
            u.url,
            this.seal(f.headers, json<StoredKv[]>(prev!.headers, [])),
            u.sealed,
            f.idle_timeout_s,
            f.max_retries,
            f.call_timeout_s,
            opts.touch === false ? prev!.updated_at : this.now(),
            id,
          ),
      f.name,
    );
    return this.adapter(id);
  }

  /**
   * Seals values older versions stored in clear: env/header names only the current rule
   * recognises (DB_PASS, GITHUB_PAT …), arguments after secret-looking flags, secret-looking URL
   * query parameters. Runs on start; returns the ids it changed.
   */
  upgradeSecrets(): string[] {
    const changed: string[] = [];
    for (const row of this.db.prepare('SELECT * FROM mcp_adapters').all() as AdapterRow[]) {
      const a = this.toAdapter(row);
      let dirty = false;
      const kv = (list: KeyValue[]) =>
        list.map((e) => {
          if (!e.secret && e.value && looksSecret(e.key) && !OLD_SECRET_KEY.test(e.key)) {
            dirty = true;
            return { ...e, secret: true };
          }
          return e;
        });
      const env = kv(a.env);
      const headers = kv(a.headers);
      const detected = detectSecretArgs(a.args);
      const argSecrets = a.arg_secrets.map((s, i) => s || (detected[i] ?? false));
      if (argSecrets.some((s, i) => s !== a.arg_secrets[i])) dirty = true;
      const params = a.url ? [...new Set([...a.url_secrets, ...detectSecretParams(a.url)])] : [];
      if (params.length !== a.url_secrets.length) dirty = true;
      if (!dirty) continue;
      this.db.transaction(() => this.updateAdapter(a.id, { ...a, env, headers, arg_secrets: argSecrets, url_secrets: params }, { touch: false }))();
      changed.push(a.id);
    }
    return changed;
  }

  deleteAdapter(id: string): void {
    this.adapter(id);
    const used = this.db.prepare<unknown[], { name: string }>('SELECT name FROM route_rules WHERE adapter_id = ?').all(id);
    if (used.length) {
      throw new MailroomError('conflict', `The adapter is used by ${used.length} route(s) (${used.map((u) => u.name).join(', ')}); delete or retarget them first.`, { routes: used.map((u) => u.name) });
    }
    this.db.prepare('DELETE FROM mcp_adapters WHERE id = ?').run(id);
  }

  private guardName(fn: () => void, name: string): void {
    try {
      fn();
    } catch (e) {
      if (/UNIQUE constraint failed: mcp_adapters.name/.test(String(e))) throw new MailroomError('conflict', `An adapter named "${name}" already exists; pick another name.`);
      throw e;
    }
  }

  // ---- routes ----

  private toRoute(r: RouteRow): Route {
    return {
      id: r.id,
      name: r.name,
      enabled: r.enabled === 1,
      priority: r.priority,
      condition: parseCondition(json<unknown>(r.trigger_conditions, { always: true })),
      adapter_id: r.adapter_id,
      tool: r.target_tool_name,
      mapper: r.mapper,
      mapping: json<JsonObject | null>(r.mapping, null),
      instructions: r.processing_instructions,
      allow_fallback: r.allow_fallback === 1,
      tool_schema: json<JsonSchema | null>(r.tool_schema_cache, null),
      tool_schema_hash: r.tool_schema_hash,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }

  /** All routes in the order distribution tries them: priority high → low, then oldest first. */
  listRoutes(): Route[] {
    return (this.db.prepare('SELECT * FROM route_rules ORDER BY priority DESC, created_at ASC, rowid ASC').all() as RouteRow[]).map((r) => this.toRoute(r));
  }

  route(id: string): Route {
    const r = this.db.prepare<unknown[], RouteRow>('SELECT * FROM route_rules WHERE id = ?').get(id);
    if (!r) throw notFound(`No route with id ${id}. List them with GET /api/routes.`, { id }, ROUTE_NOT_FOUND);
    return this.toRoute(r);
  }

  createRoute(f: RouteFields, schema?: { schema: JsonSchema; hash: string }): Route {
    this.adapter(f.adapter_id);
    const id = newId('rt');
    const at = this.now();
    this.db
      .prepare(
        `INSERT INTO route_rules (id, name, enabled, priority, trigger_conditions, adapter_id, target_tool_name, mapper, mapping, processing_instructions, allow_fallback, tool_schema_cache, tool_schema_hash, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, ...routeColumns(f, schema), at, at);
    return this.route(id);
  }

  updateRoute(id: string, f: RouteFields, schema?: { schema: JsonSchema; hash: string }): Route {
    const prev = this.route(id);
    this.adapter(f.adapter_id);
    // A different target invalidates the cached schema; the same target keeps it until refreshed.
    const sameTarget = prev.adapter_id === f.adapter_id && prev.tool === f.tool;
    const s = schema ?? (sameTarget && prev.tool_schema ? { schema: prev.tool_schema, hash: prev.tool_schema_hash ?? '' } : undefined);
    this.db
      .prepare(
        `UPDATE route_rules SET name = ?, enabled = ?, priority = ?, trigger_conditions = ?, adapter_id = ?, target_tool_name = ?, mapper = ?, mapping = ?,
           processing_instructions = ?, allow_fallback = ?, tool_schema_cache = ?, tool_schema_hash = ?, updated_at = ? WHERE id = ?`,
      )
      .run(...routeColumns(f, s), this.now(), id);
    return this.route(id);
  }

  /** Stores the tool schema the route was last checked against (the drift baseline). */
  setRouteSchema(id: string, schema: JsonSchema, hash: string): void {
    this.db.prepare('UPDATE route_rules SET tool_schema_cache = ?, tool_schema_hash = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(schema), hash, this.now(), id);
  }

  deleteRoute(id: string): void {
    this.route(id);
    this.db.prepare('DELETE FROM route_rules WHERE id = ?').run(id);
  }

  /** Drag-to-reorder: the first id gets the highest priority; routes not listed keep theirs below. */
  reorder(ids: string[]): Route[] {
    const all = this.listRoutes();
    const known = new Set(all.map((r) => r.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) throw notFound(`Unknown route id(s): ${unknown.join(', ')}. Reload the list and try again.`, { ids: unknown }, ROUTE_NOT_FOUND);
    if (new Set(ids).size !== ids.length) throw invalidArgument('Each route may appear once in the new order.');
    const rest = all.filter((r) => !ids.includes(r.id)).map((r) => r.id);
    const order = [...ids, ...rest];
    const set = this.db.prepare('UPDATE route_rules SET priority = ?, updated_at = ? WHERE id = ?');
    const at = this.now();
    this.db.transaction(() => order.forEach((id, i) => set.run((order.length - i) * 10, at, id)))();
    return this.listRoutes();
  }

  // ---- distributions ----

  logDistribution(d: Omit<DistributionRow, 'id' | 'created_at'>): DistributionRow {
    const at = this.now();
    const r = this.db
      .prepare(
        `INSERT INTO distributions (run_id, item_key, item_title, route_id, route_name, adapter_id, tool, attempt, status, retryable, args, result, error, duration_ms, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        d.run_id,
        d.item_key,
        d.item_title,
        d.route_id,
        d.route_name,
        d.adapter_id,
        d.tool,
        d.attempt,
        d.status,
        d.retryable ? 1 : 0,
        d.args === undefined ? null : JSON.stringify(d.args),
        d.result === undefined ? null : JSON.stringify(d.result),
        d.error,
        Math.round(d.duration_ms),
        at,
      );
    return { ...d, id: Number(r.lastInsertRowid), created_at: at };
  }

  distributions(f: DistributionFilter = {}): DistributionRow[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (f.route_id) {
      where.push('route_id = ?');
      params.push(f.route_id);
    }
    if (f.adapter_id) {
      where.push('adapter_id = ?');
      params.push(f.adapter_id);
    }
    if (f.status) {
      where.push('status = ?');
      params.push(f.status);
    }
    if (f.run_id) {
      where.push('run_id = ?');
      params.push(f.run_id);
    }
    if (f.item) {
      where.push('(item_key LIKE ? OR item_title LIKE ?)');
      params.push(`%${f.item}%`, `%${f.item}%`);
    }
    if (f.before_id) {
      where.push('id < ?');
      params.push(f.before_id);
    }
    // A limit that is not a number (a hand-typed query string) falls back to the default.
    const asked = Number(f.limit ?? 100);
    const limit = Number.isFinite(asked) ? Math.max(1, Math.min(1000, Math.trunc(asked))) : 100;
    const rows = this.db
      .prepare<unknown[], DistRow>(`SELECT * FROM distributions ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY id DESC LIMIT ?`)
      .all(...params, limit);
    return rows.map((r) => ({
      ...r,
      retryable: r.retryable === 1,
      args: json<unknown>(r.args, null),
      result: json<unknown>(r.result, null),
    }));
  }

  countDistributions(): number {
    return countRows(this.db, 'SELECT COUNT(*) AS n FROM distributions');
  }

  /** Distribution runs (one per routing of a set of items), newest first: what History lists. */
  distributionRuns(limit: number): DistributionRun[] {
    return this.runRows('GROUP BY run_id ORDER BY at DESC LIMIT ?', limit);
  }

  /** One distribution run by id (what History's detail shows), or undefined. */
  distributionRun(runId: string): DistributionRun | undefined {
    return this.runRows('WHERE run_id = ? GROUP BY run_id', runId)[0];
  }

  private runRows(tail: string, arg: number | string): DistributionRun[] {
    return this.db
      .prepare<[number | string], DistributionRun>(
        `SELECT run_id, max(created_at) AS at, count(DISTINCT item_key) AS items, group_concat(DISTINCT item_title) AS titles,
                coalesce(group_concat(DISTINCT route_name), '') AS routes, coalesce(group_concat(DISTINCT tool), '') AS tools,
                sum(status = 'ok') AS ok, sum(status = 'error') AS failed
         FROM distributions ${tail}`,
      )
      .all(arg);
  }
}

/** A route's stored columns, in the order both INSERT and UPDATE name them (name … tool_schema_hash). */
function routeColumns(f: RouteFields, schema: { schema: JsonSchema; hash: string } | undefined) {
  return [
    f.name,
    f.enabled ? 1 : 0,
    f.priority,
    JSON.stringify(f.condition),
    f.adapter_id,
    f.tool,
    f.mapper,
    f.mapping ? JSON.stringify(f.mapping) : null,
    f.instructions,
    f.allow_fallback ? 1 : 0,
    schema ? JSON.stringify(schema.schema) : null,
    schema?.hash ?? null,
  ] as const;
}

export interface DistributionRun {
  run_id: string;
  at: string;
  items: number;
  /** Item titles, comma-joined. */
  titles: string;
  routes: string;
  tools: string;
  ok: number;
  failed: number;
}


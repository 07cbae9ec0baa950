/** The router's REST contract (`/api/mcp-adapters`, `/api/routes`, `/api/router`, `/api/distributions`) and hub payloads. */
import { z } from 'zod';
import { route } from './route';
import { queryText } from './query';

const Json = z.record(z.string(), z.unknown());
const ErrorBrief = z.object({ code: z.string(), message: z.string() });

export const KeyValue = z.object({ key: z.string(), value: z.string(), secret: z.boolean() });
export type KeyValue = z.infer<typeof KeyValue>;

export const AdapterState = z.enum(['idle', 'starting', 'running', 'failed']);
export type AdapterState = z.infer<typeof AdapterState>;

export const AdapterStatus = z.object({
  adapter_id: z.string(),
  state: AdapterState,
  pid: z.number().nullable(),
  /** Why it failed (state 'failed') or why the last start/crash happened. */
  reason: z.string().nullable(),
  restarts: z.number(),
  /** Processes started for this adapter since the owner started. */
  spawned: z.number(),
  last_used_at: z.string().nullable(),
});
export type AdapterStatus = z.infer<typeof AdapterStatus>;

/** An adapter as the API shows it: secret values masked (`arg_secrets`, `url_secrets`, `secret`), with its live status. */
export const Adapter = z.object({
  id: z.string(),
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  command: z.string().nullable(),
  args: z.array(z.string()),
  arg_secrets: z.array(z.boolean()),
  env: z.array(KeyValue),
  url: z.string().nullable(),
  url_secrets: z.array(z.string()),
  headers: z.array(KeyValue),
  idle_timeout_s: z.number(),
  max_retries: z.number(),
  call_timeout_s: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  status: AdapterStatus,
  /** Why the command cannot be started here (not found, not executable), checked on read. */
  command_problem: z.string().nullable(),
  routes: z.number(),
});
export type Adapter = z.infer<typeof Adapter>;

export const ToolInfo = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: Json,
  /** sha256 of the input schema in canonical JSON: equal hashes, equal schemas. */
  hash: z.string(),
});
export type ToolInfo = z.infer<typeof ToolInfo>;

/**
 * What the router needs to know about an item. The vault and inbox domains hand over richer
 * objects; these fields are all the router relies on, so either may change freely.
 */
export const RoutableItem = z.object({
  path: z.string().optional(),
  title: z.string(),
  content: z.string(),
  /** The folder the inbox suggests filing it into (its destination). */
  folder: z.string().optional(),
  intent: z.string().optional(),
  entities: z.array(z.string()),
  tags: z.array(z.string()),
  /** Where it came from: 'note', 'mcp', 'mail', 'session', … */
  source: z.string().optional(),
  /** An ISO date the item is about (a due date, the day it was written). */
  date: z.string().optional(),
  frontmatter: Json.optional(),
});
export type RoutableItem = z.infer<typeof RoutableItem>;

export const Field = z.enum(['folder', 'intent', 'entities', 'tags', 'source', 'title', 'content', 'path']);
export type Field = z.infer<typeof Field>;
export const Op = z.enum(['equals', 'not_equals', 'in', 'contains', 'starts_with', 'matches', 'exists']);
export type Op = z.infer<typeof Op>;
export interface Leaf {
  field: Field;
  op: Op;
  value?: string | string[];
  case_sensitive?: boolean;
}
export type Condition = { always: true } | { all: Condition[] } | { any: Condition[] } | { not: Condition } | Leaf;

export const Validation = z.object({ valid: z.boolean(), errors: z.array(z.string()), warning: z.string().optional() });
export type Validation = z.infer<typeof Validation>;

export const Route = z.object({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  priority: z.number(),
  condition: z.custom<Condition>(),
  adapter_id: z.string(),
  tool: z.string(),
  mapper: z.enum(['template', 'llm']),
  mapping: Json.nullable(),
  /** Natural-language instructions for the LLM mapper (and shown to the person as the intent). */
  instructions: z.string(),
  allow_fallback: z.boolean(),
  tool_schema: Json.nullable(),
  tool_schema_hash: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  adapter_name: z.string().nullable(),
  condition_text: z.string(),
  /** True when the tool's current schema differs from the one the mapping was written for; null when unknown. */
  schema_drift: z.boolean().nullable(),
  current_schema_hash: z.string().nullable(),
});
export type Route = z.infer<typeof Route>;

export const Preview = z.object({
  tool: ToolInfo.nullable(),
  args: Json.nullable(),
  validation: Validation,
  mapper: z.string(),
  reasoning: z.string().optional(),
  error: ErrorBrief.optional(),
  condition_met: z.boolean(),
  item: RoutableItem,
});
export type Preview = z.infer<typeof Preview>;

export const Attempt = z.object({ attempt: z.number(), status: z.enum(['ok', 'error']), retryable: z.boolean(), error: z.string().nullable(), duration_ms: z.number() });
export type Attempt = z.infer<typeof Attempt>;

export const RouteResult = z.object({
  status: z.enum(['ok', 'failed', 'unrouted', 'dry_run']),
  run_id: z.string().nullable(),
  item: RoutableItem,
  /** The routes whose condition the item met, in the order they would be tried. */
  candidates: z.array(z.object({ id: z.string(), name: z.string() })),
  matched: z.object({ id: z.string(), name: z.string(), adapter_id: z.string(), tool: z.string() }).nullable(),
  args: Json.nullable(),
  validation: Validation.nullable(),
  mapper: z.string().nullable(),
  result: z.unknown(),
  attempts: z.array(Attempt),
  error: ErrorBrief.nullable(),
  /** Routes passed over because their arguments could not be built (nothing was sent). */
  skipped: z.array(z.object({ id: z.string(), name: z.string(), reason: z.string() })),
});
export type RouteResult = z.infer<typeof RouteResult>;

export const Distribution = z.object({
  id: z.number(),
  run_id: z.string(),
  item_key: z.string(),
  item_title: z.string(),
  route_id: z.string().nullable(),
  route_name: z.string().nullable(),
  adapter_id: z.string().nullable(),
  tool: z.string().nullable(),
  attempt: z.number(),
  status: z.enum(['ok', 'error', 'skipped']),
  retryable: z.boolean(),
  args: z.unknown(),
  result: z.unknown(),
  error: z.string().nullable(),
  duration_ms: z.number(),
  created_at: z.string(),
});
export type Distribution = z.infer<typeof Distribution>;

export const AdapterTest = z.object({ ok: z.boolean(), tools: z.array(ToolInfo), status: AdapterStatus, error: ErrorBrief.nullable(), duration_ms: z.number() });
export type AdapterTest = z.infer<typeof AdapterTest>;

// ---------- bodies ----------

const ItemFields = { path: z.string().optional(), item: z.record(z.string(), z.unknown()).optional() };
export const PreviewBody = z
  .object(ItemFields)
  .passthrough()
  .refine((v) => !!v.path !== !!v.item, { message: 'give exactly one of path (a note in the vault) or item ({ title, content, … })' });
export const TestRouteBody = z.object({ ...ItemFields, confirm: z.boolean().optional() });
export const RouteItemBody = z.object({ ...ItemFields, dry_run: z.boolean().default(false), route_id: z.string().optional() });
/** Adapter and route bodies are checked field by field by the router (their messages name the field). */
const Checked = z.unknown();
const Ok = z.object({ ok: z.boolean() });

/** A number in the query, as given (the store checks it); empty or missing → none. */
const queryInt = () => queryText().transform((v) => (v ? Number(v) : undefined));

/** GET /api/distributions: the routing log, newest first, filtered. */
export const DistributionsQuery = z.object({
  route_id: queryText(),
  adapter_id: queryText(),
  status: z.preprocess((v) => v || undefined, z.enum(['ok', 'error', 'skipped'], { error: 'status must be ok, error or skipped.' }).optional()),
  item: queryText(),
  run_id: queryText(),
  limit: queryInt(),
  /** Rows older than this id (the next page). */
  before_id: queryInt(),
});

export const routerRoutes = {
  listAdapters: route('GET', '/api/mcp-adapters', { reply: z.array(Adapter) }),
  createAdapter: route('POST', '/api/mcp-adapters', { body: Checked, reply: Adapter }),
  getAdapter: route('GET', '/api/mcp-adapters/:id', { reply: Adapter }),
  updateAdapter: route('PUT', '/api/mcp-adapters/:id', { body: Checked, reply: Adapter }),
  deleteAdapter: route('DELETE', '/api/mcp-adapters/:id', { reply: Ok }),
  testAdapter: route('POST', '/api/mcp-adapters/:id/test', { reply: AdapterTest }),
  /** `?refresh=1` asks the adapter's server again instead of the cached list. */
  adapterTools: route('GET', '/api/mcp-adapters/:id/tools', { query: z.object({ refresh: z.string().optional().transform((v) => v === '1') }), reply: z.array(ToolInfo) }),
  listRoutes: route('GET', '/api/routes', { reply: z.array(Route) }),
  createRoute: route('POST', '/api/routes', { body: Checked, reply: Route }),
  reorderRoutes: route('POST', '/api/routes/reorder', { body: Checked, reply: z.array(Route) }),
  getRoute: route('GET', '/api/routes/:id', { reply: Route }),
  updateRoute: route('PUT', '/api/routes/:id', { body: Checked, reply: Route }),
  deleteRoute: route('DELETE', '/api/routes/:id', { reply: Ok }),
  checkRoute: route('POST', '/api/routes/:id/check', { reply: Route }),
  previewRoute: route('POST', '/api/routes/:id/preview', { body: PreviewBody, reply: Preview }),
  testRoute: route('POST', '/api/routes/:id/test', { body: TestRouteBody, reply: RouteResult }),
  routeItem: route('POST', '/api/router/route', { body: RouteItemBody, reply: RouteResult }),
  status: route('GET', '/api/router/status', { reply: z.array(AdapterStatus) }),
  distributions: route('GET', '/api/distributions', { query: DistributionsQuery, reply: z.array(Distribution) }),
} as const;

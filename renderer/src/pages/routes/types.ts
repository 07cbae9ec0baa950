/** The router's REST shapes as the Routes page sees them (mirrors electron/core/domains/router). */

export interface KeyValue {
  key: string;
  value: string;
  secret: boolean;
}

export type AdapterState = 'idle' | 'starting' | 'running' | 'failed';

export interface AdapterStatus {
  adapter_id: string;
  state: AdapterState;
  pid: number | null;
  reason: string | null;
  restarts: number;
  spawned: number;
  last_used_at: string | null;
}

export interface Adapter {
  id: string;
  name: string;
  transport: 'stdio' | 'http';
  command: string | null;
  /** Secret entries come masked; `arg_secrets[i]` says which. */
  args: string[];
  arg_secrets: boolean[];
  env: KeyValue[];
  /** Secret query parameter values come masked; `url_secrets` names them. */
  url: string | null;
  url_secrets: string[];
  headers: KeyValue[];
  idle_timeout_s: number;
  max_retries: number;
  call_timeout_s: number;
  status: AdapterStatus;
  command_problem: string | null;
  routes: number;
}

export interface ToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  hash: string;
}

export type Field = 'folder' | 'intent' | 'entities' | 'tags' | 'source' | 'title' | 'content' | 'path';
export type Op = 'equals' | 'not_equals' | 'in' | 'contains' | 'starts_with' | 'matches' | 'exists';
export interface Leaf {
  field: Field;
  op: Op;
  value?: string | string[];
  case_sensitive?: boolean;
}
export type Condition = { always: true } | { all: Condition[] } | { any: Condition[] } | { not: Condition } | Leaf;

export interface Route {
  id: string;
  name: string;
  enabled: boolean;
  priority: number;
  condition: Condition;
  condition_text: string;
  adapter_id: string;
  adapter_name: string | null;
  tool: string;
  mapper: 'template' | 'llm';
  mapping: Record<string, unknown> | null;
  instructions: string;
  allow_fallback: boolean;
  tool_schema: Record<string, unknown> | null;
  tool_schema_hash: string | null;
  schema_drift: boolean | null;
}

export interface Validation {
  valid: boolean;
  errors: string[];
  warning?: string;
}

export interface Preview {
  args: Record<string, unknown> | null;
  validation: Validation;
  mapper: string;
  reasoning?: string;
  error?: { code: string; message: string };
  condition_met: boolean;
  item: Record<string, unknown>;
}

export interface RouteResult {
  status: 'ok' | 'failed' | 'unrouted' | 'dry_run';
  run_id: string | null;
  matched: { id: string; name: string; adapter_id: string; tool: string } | null;
  args: Record<string, unknown> | null;
  validation: Validation | null;
  result: unknown;
  attempts: Array<{ attempt: number; status: 'ok' | 'error'; retryable: boolean; error: string | null; duration_ms: number }>;
  error: { code: string; message: string } | null;
  skipped: Array<{ id: string; name: string; reason: string }>;
}

export interface Distribution {
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
  retryable: boolean;
  args: unknown;
  result: unknown;
  error: string | null;
  duration_ms: number;
  created_at: string;
}

export const ROUTER_EVENTS = { adapterStatus: 'RouterAdapterStatus', distribution: 'RouterDistribution' } as const;

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

import type { JsonObject, JsonSchema } from '../../kernel/types';
import type { Condition } from './conditions';
import type { KeyValue } from '../../../../shared/contract/router';

export type { RoutableItem } from './conditions';

/** `electron/core/domains/vault`, as far as the router uses it. */
export interface VaultLike {
  readNote(rel: string): Promise<{ path: string; title: string; frontmatter: JsonObject; content: string }> | { path: string; title: string; frontmatter: JsonObject; content: string };
}

/** `electron/core/domains/inbox`, as far as the router uses it. Items are normalised by `fromAnalysis`. */
export interface InboxLike {
  analyze(args: { paths: string[] }): Promise<unknown> | unknown;
}

export type Transport = 'stdio' | 'http';


export interface Adapter {
  id: string;
  name: string;
  transport: Transport;
  command: string | null;
  args: string[];
  /** Per argument: true when it is secret (sealed at rest, masked on the wire and in logs). */
  arg_secrets: boolean[];
  env: KeyValue[];
  url: string | null;
  /** Names of URL query parameters whose values are secret. */
  url_secrets: string[];
  headers: KeyValue[];
  /** Seconds without a request before the server process is closed. */
  idle_timeout_s: number;
  /** Retries after the first attempt for retryable failures. */
  max_retries: number;
  /** Seconds a single tool call may take before it counts as a (retryable) timeout. */
  call_timeout_s: number;
  created_at: string;
  updated_at: string;
}

export type Mapper = 'template' | 'llm';

export interface Route {
  id: string;
  name: string;
  enabled: boolean;
  priority: number;
  condition: Condition;
  adapter_id: string;
  tool: string;
  mapper: Mapper;
  /** The declarative mapping (template) for the `template` mapper; null = schema-aware defaults. */
  mapping: JsonObject | null;
  /** Natural-language instructions for the LLM mapper (and shown to the person as the intent). */
  instructions: string;
  allow_fallback: boolean;
  tool_schema: JsonSchema | null;
  tool_schema_hash: string | null;
  created_at: string;
  updated_at: string;
}

export type { AdapterState, AdapterStatus, Distribution as DistributionRow, KeyValue } from '../../../../shared/contract/router';



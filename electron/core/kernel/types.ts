import type { IncomingMessage } from 'node:http';
import type Database from 'better-sqlite3';
import type { Logger } from './log';
import type { EventBus } from './events';
import type { Config } from './config';
import type { Scope } from './scope';
import type { HubEventArgs, HubEventName } from '../../../shared/contract/hub';

export type JsonSchema = Record<string, unknown>;
export type JsonObject = Record<string, unknown>;

/** A request for the connected MCP client's LLM (MCP sampling). */
export interface SampleRequest {
  system?: string;
  prompt: string;
  maxTokens?: number;
}

/** What a tool handler knows about who is calling. */
export interface ToolContext {
  /** The calling session's task id (from MAILROOM_TASK_ID in the client's environment), if any. */
  sessionId?: string;
  /** Present only when the connected client supports sampling. */
  sample?: (req: SampleRequest) => Promise<string>;
  /** Where the call came from: 'mcp' (stdio or HTTP), 'api' (renderer), 'cli'. */
  origin: 'mcp' | 'api' | 'cli';
  signal?: AbortSignal;
}

/** One MCP tool. Build it with `defineTool` (zod) or by hand with JSON Schema + `parse` (mail). */
export interface ToolDef {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** Validates raw arguments; throws a MailroomError(invalid_argument) that says what is wrong. */
  parse(args: unknown): unknown;
  /** Returns the structured result (validated against outputSchema by the caller in tests). */
  call(args: never, ctx: ToolContext): Promise<JsonObject>;
}

export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** An MCP resource template (e.g. `email://threads/{id}`). */
export interface ResourceTemplateDef {
  name: string;
  uriTemplate: string;
  description?: string;
  mimeType?: string;
  /** Concrete resources to show in resources/list (may be empty). */
  list?(): Promise<ResourceEntry[]>;
  /**
   * For large collections instead of `list`: one page of resources from `cursor` (undefined = the
   * start) and the cursor of the next page, if any. resources/list pages through it.
   */
  listPage?(cursor: string | undefined): Promise<{ resources: ResourceEntry[]; nextCursor?: string }>;
  /** Returns the resource body as JSON, or undefined when the URI is not this template's. */
  read?(uri: URL): Promise<JsonObject | undefined>;
  /** Instead of `read`, for non-JSON bodies (e.g. markdown notes): the text, in this template's mimeType. */
  readText?(uri: URL): Promise<string | undefined>;
}

export interface ApiRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body, or a Buffer when the route asked for `rawBody`; undefined with `streamBody`. */
  body: unknown;
  headers: IncomingMessage['headers'];
  /** The unread request body, for routes with `streamBody` (they check what they can first, then read). */
  stream?: AsyncIterable<Buffer>;
}

/** A non-JSON response from a REST route (downloads, redirects). */
export class RawResponse {
  constructor(
    readonly status: number,
    readonly body: string | Buffer,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Express-style path, `/api/...`, with `:param` segments. */
  path: string;
  /** Accept an arbitrary body as a Buffer (file uploads); JSON otherwise. */
  rawBody?: boolean;
  /** Body size limit in bytes (default 1 MiB; raw bodies default 512 MiB). */
  maxBytes?: number;
  /**
   * Do not read the body: the handler gets it as `stream` and reads it itself (large uploads, so
   * it can refuse a request — unknown inbox, bad query — before a byte of the body is read).
   */
  streamBody?: boolean;
  handler(req: ApiRequest): unknown | Promise<unknown>;
}

export interface HubCallContext {
  connectionId: string;
}
export type HubMethodHandler = (ctx: HubCallContext, ...args: unknown[]) => unknown | Promise<unknown>;

/** What domains may do with the hub: broadcast events to every connected client. */
export interface HubBroadcaster {
  /** Event names and their arguments come from the hub contract (shared/contract/hub.ts). */
  broadcast<E extends HubEventName>(event: E, ...args: HubEventArgs[E]): void;
}

/** Native powers: Electron implements them for real, the headless owner through the web UI. */
export interface Platform {
  kind: 'electron' | 'headless';
  notify(n: { title: string; body: string }): void;
  /** Total count for the tray badge / page title, with an optional tooltip. */
  setBadge(key: string, count: number): void;
  /** Current badge counts by key (for the UI's first paint). */
  badges(): Record<string, number>;
  secrets: SecretBox;
}

/** Encrypts secrets at rest (Electron safeStorage, or a 0600 key file headless). */
export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Everything a domain factory receives from the composition root. */
export interface CoreContext {
  config: Config;
  log: Logger;
  stateDb: Database.Database;
  hub: HubBroadcaster;
  events: EventBus;
  platform: Platform;
  clock: Clock;
  /** The domain's disposal scope: timers, watchers and children registered here end after its stop(). */
  scope: Scope;
}

/** What each domain contributes. Everything it starts, it stops. */
/**
 * Values a domain offers for argument completion (MCP `completion/complete`), by name, e.g.
 * `mail.inbox` → inbox ids. Given what was typed so far; returns matching values, best first.
 */
export type CompletionSource = (prefix: string) => string[] | Promise<string[]>;

export interface Domain {
  readonly name: string;
  tools?: ToolDef[];
  resourceTemplates?: ResourceTemplateDef[];
  /** Named value lists for MCP argument completion (prompts name the source they complete from). */
  completions?: Record<string, CompletionSource>;
  routes?: RouteDef[];
  hubMethods?: Record<string, HubMethodHandler>;
  /** Counts shown by `mailroom_info` and `/api/info`. */
  counts?(): Record<string, number>;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

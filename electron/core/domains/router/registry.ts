import crypto from 'node:crypto';
import { notFound } from '../../kernel/errors';
import type { Clock, JsonSchema } from '../../kernel/types';
import type { ClientPool } from './pool';

export const TOOL_NOT_FOUND = 'tool_not_found';

export interface ToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  /** sha256 of the input schema in canonical JSON: equal hashes, equal schemas. */
  hash: string;
}

/** JSON with sorted keys, so the same schema always hashes the same. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(',') + ']';
  const o = v as Record<string, unknown>;
  return '{' + Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => JSON.stringify(k) + ':' + canonicalJson(o[k])).join(',') + '}';
}

export const schemaHash = (s: JsonSchema): string => crypto.createHash('sha256').update(canonicalJson(s)).digest('hex').slice(0, 16);

/**
 * Tool discovery (the seed's ToolRegistry): `tools/list` on first use per adapter, cached per
 * (adapter, tool) with a schema hash. The cache is dropped when the adapter's server restarts
 * or after `ttlMs`, so a changed schema is seen and routes can show drift.
 */
export class ToolRegistry {
  private readonly cache = new Map<string, { at: number; tools: Map<string, ToolInfo> }>();

  constructor(
    private readonly pool: ClientPool,
    private readonly clock: Clock,
    private readonly ttlMs = 10 * 60_000,
  ) {}

  async list(adapterId: string, opts: { refresh?: boolean } = {}): Promise<ToolInfo[]> {
    const hit = this.cache.get(adapterId);
    if (hit && !opts.refresh && this.clock.now() - hit.at < this.ttlMs) return [...hit.tools.values()];
    const tools = await this.pool.withClient(adapterId, async (client) => {
      const out: ToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        for (const t of page.tools) {
          const inputSchema = t.inputSchema as JsonSchema;
          out.push({ name: t.name, title: t.title, description: t.description, inputSchema, hash: schemaHash(inputSchema) });
        }
        cursor = page.nextCursor;
      } while (cursor);
      return out;
    });
    this.cache.set(adapterId, { at: this.clock.now(), tools: new Map(tools.map((t) => [t.name, t])) });
    return tools;
  }

  async get(adapterId: string, tool: string, opts: { refresh?: boolean } = {}): Promise<ToolInfo> {
    let tools = await this.list(adapterId, opts);
    let found = tools.find((t) => t.name === tool);
    // A cached list may predate a server update that added the tool: look once more.
    if (!found && !opts.refresh) {
      tools = await this.list(adapterId, { refresh: true });
      found = tools.find((t) => t.name === tool);
    }
    if (!found) {
      throw notFound(`The server has no tool "${tool}". It offers: ${tools.map((t) => t.name).join(', ') || '(none)'}.`, { tool, available: tools.map((t) => t.name) }, TOOL_NOT_FOUND);
    }
    return found;
  }

  /** The cached tool, without starting anything (drift shown only once the schema is known). */
  peek(adapterId: string, tool: string): ToolInfo | undefined {
    return this.cache.get(adapterId)?.tools.get(tool);
  }

  invalidate(adapterId: string): void {
    this.cache.delete(adapterId);
  }
}

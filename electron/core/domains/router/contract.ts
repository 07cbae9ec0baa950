import { z } from 'zod';
import { ConditionSchema } from './conditions';

/** REST/MCP input shapes for adapters and routes: one zod definition for validation and types. */

const KeyValueIn = z.object({
  key: z.string().min(1).regex(/^[^\s=\0]+$/, 'a key has no spaces, "=" or NUL'),
  value: z.string().default(''),
  /** Defaults to true for keys that look secret (DB_PASS, GITHUB_PAT, X-Api-Key, SESSION_ID … see router/secrets.ts). */
  secret: z.boolean().optional(),
});

export const AdapterInput = z
  .object({
    name: z.string().trim().min(1).max(80),
    transport: z.enum(['stdio', 'http']).default('stdio'),
    command: z.string().trim().optional(),
    args: z.array(z.string()).default([]),
    /** Per argument: secret or not. Missing entries default to true after secret-looking flags (--token X, --api-key=X). */
    arg_secrets: z.array(z.boolean()).optional(),
    env: z.array(KeyValueIn).default([]),
    url: z.string().url().optional(),
    /** Query parameters of `url` whose values are secret (added to the secret-looking ones: token, api_key, sig …). */
    url_secrets: z.array(z.string().min(1)).optional(),
    /** Query parameters that look secret but are not (overrides the default). */
    url_public: z.array(z.string().min(1)).optional(),
    headers: z.array(KeyValueIn).default([]),
    idle_timeout_s: z.number().positive().max(86_400).default(300),
    max_retries: z.number().int().min(0).max(10).default(3),
    call_timeout_s: z.number().positive().max(3_600).default(60),
  })
  .strict();
export type AdapterInputT = z.infer<typeof AdapterInput>;

export const RouteInput = z
  .object({
    name: z.string().trim().min(1).max(120),
    enabled: z.boolean().default(true),
    priority: z.number().int().min(-1_000_000).max(1_000_000).optional(),
    condition: ConditionSchema.default({ always: true }),
    adapter_id: z.string().min(1),
    tool: z.string().min(1),
    mapper: z.enum(['template', 'llm']).default('template'),
    mapping: z.record(z.string(), z.unknown()).nullable().default(null),
    instructions: z.string().max(20_000).default(''),
    allow_fallback: z.boolean().default(false),
  })
  .strict();
export type RouteInputT = z.infer<typeof RouteInput>;

export const ReorderInput = z.object({ ids: z.array(z.string()).min(1) }).strict();

export const ItemRef = z
  .object({
    path: z.string().optional(),
    item: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((v) => !!v.path !== !!v.item, { message: 'give exactly one of path or item' });


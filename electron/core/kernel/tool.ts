import { z } from 'zod';
import { invalidArgument } from './errors';
import type { JsonObject, JsonSchema, ToolContext, ToolDef } from './types';

/** zod → JSON Schema as MCP clients expect it (an object schema, no `$schema` key). */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** Parses with zod and turns failures into a clear `invalid_argument`. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown, what = 'arguments'): z.infer<T> {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
  throw invalidArgument(`Invalid ${what}: ${problems.join('; ')}`, {
    issues: r.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
  });
}

export interface ToolSpec<I extends z.ZodObject, O extends z.ZodType> {
  name: string;
  title?: string;
  description: string;
  input: I;
  output: O;
  annotations?: ToolDef['annotations'];
  handler(args: z.infer<I>, ctx: ToolContext): Promise<z.infer<O>> | z.infer<O>;
}

/** One definition gives the MCP schemas, the validation and the TypeScript types. */
export function defineTool<I extends z.ZodObject, O extends z.ZodType>(spec: ToolSpec<I, O>): ToolDef {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    annotations: spec.annotations,
    inputSchema: toJsonSchema(spec.input, 'input'),
    outputSchema: toJsonSchema(spec.output, 'output'),
    parse: (args) => parseWith(spec.input, args),
    call: async (args: never, ctx) => (await spec.handler(args as z.infer<I>, ctx)) as JsonObject,
  };
}

/** Parse + call in one step: how the REST API and CLI reuse MCP tools. */
export async function invokeTool(tool: ToolDef, args: unknown, ctx: ToolContext): Promise<JsonObject> {
  const parsed = tool.parse(args);
  return tool.call(parsed as never, ctx);
}

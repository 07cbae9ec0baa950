import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { invalidArgument } from '../../kernel/errors';
import type { JsonSchema } from '../../kernel/types';
import { CONTRACT_BASE, CONTRACT_SCHEMAS } from './contracts/index';

// ajv-formats ships CJS with `export default`; under ESM interop the function may sit on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export type ContractName = string;

/** One ajv instance per mail domain holding every contract schema, looked up by `$id`. */
export class ContractValidator {
  readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true });
    addFormats(this.ajv);
    for (const s of CONTRACT_SCHEMAS) this.ajv.addSchema(s);
  }

  /** `tools/list_threads.input` → the compiled validator of that contract file. */
  get(name: ContractName): ValidateFunction {
    let v = this.cache.get(name);
    if (!v) {
      const found = this.ajv.getSchema(CONTRACT_BASE + name + '.json');
      if (!found) throw new Error(`no contract schema ${name}`);
      v = found;
      this.cache.set(name, v);
    }
    return v;
  }

  /**
   * The schema as an MCP client sees it: self-contained (refs to types.json inlined) so clients
   * that do not resolve remote `$ref`s still get the full shape.
   */
  inlined(name: ContractName): JsonSchema {
    const root = CONTRACT_SCHEMAS.find((s) => s.$id === CONTRACT_BASE + name + '.json');
    if (!root) throw new Error(`no contract schema ${name}`);
    return inlineRefs(structuredClone(root)) as JsonSchema;
  }

  /** Validates (applying defaults) or throws `invalid_argument` naming each problem. */
  parse<T>(name: ContractName, value: unknown, what = 'arguments'): T {
    const copy = structuredClone(value ?? {});
    const v = this.get(name);
    if (!v(copy)) throw invalidArgument(`Invalid ${what}: ${describeErrors(v.errors)}`, { issues: issues(v.errors) });
    return copy as T;
  }

  /** Checks a value we produce; a failure is our bug, so it surfaces as an internal error. */
  check(name: ContractName, value: unknown): void {
    const v = this.get(name);
    if (!v(value)) throw new Error(`mail produced a value that breaks ${name}: ${describeErrors(v.errors)}`);
  }
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      const at = e.instancePath || '(input)';
      if (e.keyword === 'additionalProperties') return `${at}: unknown property '${String(e.params.additionalProperty)}'`;
      if (e.keyword === 'required') return `${at}: missing required property '${String(e.params.missingProperty)}'`;
      return `${at}: ${e.message ?? e.keyword}`;
    })
    .join('; ');
}

function issues(errors: ErrorObject[] | null | undefined) {
  return (errors ?? []).map((e) => ({ path: e.instancePath, keyword: e.keyword, message: e.message ?? e.keyword }));
}

const TYPES = CONTRACT_SCHEMAS.find((s) => s.$id === CONTRACT_BASE + 'types.json') as { definitions: Record<string, unknown> };

function inlineRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inlineRefs);
  if (!node || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  if (typeof obj.$ref === 'string') {
    const ref = obj.$ref;
    const m = /types\.json#\/definitions\/(\w+)$/.exec(ref);
    if (m) return inlineRefs(structuredClone(TYPES.definitions[m[1] ?? '']));
    const r = /\/contracts\/neuralmail\/(.+)\.json$/.exec(ref);
    if (r) {
      const target = CONTRACT_SCHEMAS.find((s) => s.$id === CONTRACT_BASE + r[1] + '.json');
      if (target) {
        const copy = structuredClone(target);
        delete copy.$id;
        delete copy.$schema;
        return inlineRefs(copy);
      }
    }
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === '$id' || k === '$schema') continue;
    out[k] = inlineRefs(v);
  }
  return out;
}

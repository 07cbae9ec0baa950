import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../../../kernel/types';
import { canonicalJson } from '../registry';

// ajv-formats ships CJS with `export default`; under ESM interop the function may sit on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export interface Validation {
  valid: boolean;
  /** One line per problem: `/meta/priority: must be equal to one of: low, normal, high`. */
  errors: string[];
  /** Set when the server's schema could not be compiled (arguments then go unchecked). */
  warning?: string;
}

/** ajv over tools' input schemas, compiled once per distinct schema. */
export class SchemaValidator {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction | Error>();

  constructor() {
    addFormats(this.ajv);
  }

  private compile(schema: JsonSchema): ValidateFunction | Error {
    const key = canonicalJson(schema);
    let v = this.compiled.get(key);
    if (!v) {
      // Servers announce draft-07 or 2020-12; the keywords tools use mean the same in both, and
      // ajv's 2020 build refuses a draft-07 `$schema` it has not loaded, so drop the marker.
      const { $schema: _ignored, $id: _id, ...rest } = schema;
      try {
        v = this.ajv.compile(rest);
      } catch (e) {
        v = e as Error;
      }
      this.compiled.set(key, v);
    }
    return v;
  }

  /** Validates (and fills schema `default`s into) `value`. */
  validate(schema: JsonSchema | null | undefined, value: unknown): Validation {
    if (!schema) return { valid: true, errors: [], warning: 'The tool publishes no input schema; arguments are sent unchecked.' };
    const v = this.compile(schema);
    if (v instanceof Error) return { valid: true, errors: [], warning: `The tool's input schema could not be compiled (${v.message}); arguments are sent unchecked.` };
    const ok = v(value) as boolean;
    return { valid: ok, errors: ok ? [] : formatErrors(v.errors ?? []) };
  }
}

export function formatErrors(errors: ErrorObject[]): string[] {
  return errors.map((e) => {
    const at = e.instancePath || '(root)';
    const p = e.params as Record<string, unknown>;
    if (e.keyword === 'enum') return `${at}: must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}`;
    if (e.keyword === 'additionalProperties') return `${at}: unexpected property "${String(p.additionalProperty)}"`;
    if (e.keyword === 'required') return `${at}: missing required property "${String(p.missingProperty)}"`;
    return `${at}: ${e.message ?? e.keyword}`;
  });
}

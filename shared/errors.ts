/**
 * The one error shape every Mailroom surface uses on the wire (REST bodies, MCP tool errors,
 * hub completions). Matches `../shared/contracts/neuralmail/errors.json`.
 */
export interface ErrorShape {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Codes shared across domains. Domains may add their own (e.g. `task_not_found`). */
export const ErrorCode = {
  invalidArgument: 'invalid_argument',
  notFound: 'not_found',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  conflict: 'conflict',
  pathOutsideVault: 'path_outside_vault',
  tooLarge: 'too_large',
  unavailable: 'unavailable',
  internal: 'internal',
} as const;

export function isErrorShape(value: unknown): value is ErrorShape {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorShape).code === 'string' &&
    typeof (value as ErrorShape).message === 'string'
  );
}

import { ErrorCode, type ErrorShape } from '../../../shared/errors';

const STATUS_BY_CODE: Record<string, number> = {
  [ErrorCode.invalidArgument]: 400,
  [ErrorCode.pathOutsideVault]: 400,
  [ErrorCode.tooLarge]: 413,
  [ErrorCode.unauthorized]: 401,
  [ErrorCode.forbidden]: 403,
  [ErrorCode.notFound]: 404,
  [ErrorCode.conflict]: 409,
  [ErrorCode.unavailable]: 503,
};

/** An error a user or client can act on: a stable code, a message that says what to do. */
export class MailroomError extends Error {
  readonly code: string;
  readonly details?: Record<string, unknown>;
  readonly status: number;

  constructor(code: string, message: string, details?: Record<string, unknown>, status?: number) {
    super(message);
    this.name = 'MailroomError';
    this.code = code;
    this.details = details;
    this.status = status ?? STATUS_BY_CODE[code] ?? (code.endsWith('_not_found') ? 404 : 400);
  }

  toJSON(): ErrorShape {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}

export const invalidArgument = (message: string, details?: Record<string, unknown>) =>
  new MailroomError(ErrorCode.invalidArgument, message, details);

/**
 * Narrows an indexed read the code knows is present (a loop-bounded index, a regex group that
 * always takes part); a miss is a bug and fails as `internal`, never as a silent undefined.
 */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new MailroomError(ErrorCode.internal, `Internal invariant broken: ${what} is missing.`, undefined, 500);
  return value;
}

export const notFound = (message: string, details?: Record<string, unknown>, code: string = ErrorCode.notFound) =>
  new MailroomError(code, message, details, 404);

/** Why a request's own input made the file system refuse: a 400 the caller can act on. */
const FS_INPUT_ERRORS: Record<string, string> = {
  ENAMETOOLONG: 'A file or folder name is too long for the file system (at most 255 bytes per name). Use a shorter name.',
  EILSEQ: 'A file or folder name contains characters the file system does not accept. Use a different name.',
};

/**
 * Errors a caller's input can cause deep inside a domain (a folder name the file system rejects)
 * become `invalid_argument` on every surface (REST, MCP, hub); everything else passes through.
 */
export function clientErrorOf(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (!(err instanceof MailroomError) && typeof code === 'string' && code in FS_INPUT_ERRORS) {
    const syscall = (err as NodeJS.ErrnoException).syscall;
    return new MailroomError(ErrorCode.invalidArgument, FS_INPUT_ERRORS[code]!, { errno: code, ...(syscall ? { syscall } : {}) });
  }
  return err;
}

/** Turns anything thrown into the wire shape; unknown errors become `internal` without stack traces. */
export function toErrorShape(thrown: unknown): ErrorShape {
  const err = clientErrorOf(thrown);
  if (err instanceof MailroomError) return err.toJSON();
  if (err && typeof err === 'object' && 'issues' in err && Array.isArray((err as { issues: unknown[] }).issues)) {
    // zod error
    const issues = (err as { issues: Array<{ path: PropertyKey[]; message: string }> }).issues;
    return {
      code: ErrorCode.invalidArgument,
      message: issues.map((i) => `${i.path.map(String).join('.') || '(input)'}: ${i.message}`).join('; '),
      details: { issues: issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: ErrorCode.internal, message: `Internal error: ${message}. See the log in the data dir.` };
}

export function statusOf(thrown: unknown): number {
  const err = clientErrorOf(thrown);
  if (err instanceof MailroomError) return err.status;
  return toErrorShape(err).code === ErrorCode.invalidArgument ? 400 : 500;
}

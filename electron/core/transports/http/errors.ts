import { MailroomError } from '../../kernel/errors';
import { ErrorCode } from '../../../../shared/errors';

/** Kept here for the HTTP layer's callers; the mapping lives in common/errors (every surface uses it). */
export { clientErrorOf } from '../../kernel/errors';

/** decodeURIComponent that reports malformed percent-encoding as a 400 instead of throwing URIError. */
export function decodePathPart(part: string, what = 'The request path'): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new MailroomError(ErrorCode.invalidArgument, `${what} has malformed percent-encoding (a '%' must be followed by two hex digits forming UTF-8).`);
  }
}

/** Parses a request target against our own origin; null when it is not a URL path at all. */
export function parseTarget(target: string | undefined, port: number): URL | null {
  try {
    return new URL(target ?? '/', `http://127.0.0.1:${port}`);
  } catch {
    return null;
  }
}

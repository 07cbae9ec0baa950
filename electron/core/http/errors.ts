import { MailroomError } from '../common/errors';
import { ErrorCode } from '../../../shared/errors';

/** Why a request's own input made the file system refuse, as a 400 the caller can act on. */
const FS_INPUT_ERRORS: Record<string, string> = {
  ENAMETOOLONG: 'A file or folder name is too long for the file system (at most 255 bytes per name). Use a shorter name.',
  EILSEQ: 'A file or folder name contains characters the file system does not accept. Use a different name.',
};

/**
 * Errors a request's input can cause deep inside a domain (a folder name the file system
 * rejects) become `invalid_argument`; everything else passes through unchanged.
 */
export function clientErrorOf(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (!(err instanceof MailroomError) && typeof code === 'string' && code in FS_INPUT_ERRORS) {
    const syscall = (err as NodeJS.ErrnoException).syscall;
    return new MailroomError(ErrorCode.invalidArgument, FS_INPUT_ERRORS[code], { errno: code, ...(syscall ? { syscall } : {}) });
  }
  return err;
}

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

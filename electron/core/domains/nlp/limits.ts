import { MailroomError } from '../../kernel/errors';
import { ErrorCode } from '../../../../shared/errors';

/** Longest message the models read: beyond it a clear error, never a slow crawl. */
export const MAX_CHARS = 10_000;

export function assertSize(text: string, field = 'message'): void {
  if (typeof text !== 'string') throw new MailroomError(ErrorCode.invalidArgument, `${field} must be a string.`);
  if (text.length > MAX_CHARS) {
    throw new MailroomError(
      ErrorCode.tooLarge,
      `${field} is ${text.length} characters; the on-device models read at most ${MAX_CHARS}. Split it or send a summary.`,
      { length: text.length, max: MAX_CHARS },
    );
  }
}

import { MailroomError } from '../../kernel/errors';
import { ErrorCode } from '../../../../shared/errors';

import { MAX_CHARS } from '../../../../shared/contract/nlp';

export { MAX_CHARS } from '../../../../shared/contract/nlp';

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

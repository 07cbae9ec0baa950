import type { PromptDef } from '../prompt';
import { fileThisPrompt } from './file_this';
import { reviewInboxPrompt } from './review_inbox';
import { sessionMessagesPrompt } from './session_messages';
import { triageMailPrompt } from './triage_mail';

/** Every MCP prompt Mailroom offers (one file each). */
export const mailroomPrompts: PromptDef[] = [reviewInboxPrompt, fileThisPrompt, triageMailPrompt, sessionMessagesPrompt];

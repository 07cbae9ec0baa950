import type { ToolDef } from '../../../kernel/types';
import type { MailService } from '../service';
import { listThreadsTool } from './list_threads';
import { getThreadTool } from './get_thread';
import { searchInboxTool } from './search_inbox';
import { triageMessageTool } from './triage_message';
import { extractToSchemaTool } from './extract_to_schema';
import { draftReplyWithPolicyTool } from './draft_reply_with_policy';
import { sendReplyTool } from './send_reply';

/** The seven NeuralMail tools, named exactly as the contract names them. */
export const mailTools = (mail: MailService): ToolDef[] => [
  listThreadsTool(mail),
  getThreadTool(mail),
  searchInboxTool(mail),
  triageMessageTool(mail),
  extractToSchemaTool(mail),
  draftReplyWithPolicyTool(mail),
  sendReplyTool(mail),
];

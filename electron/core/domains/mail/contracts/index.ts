import types from './types.json' with { type: 'json' };
import errors from './errors.json' with { type: 'json' };
import inbox from './resources/inbox.json' with { type: 'json' };
import thread from './resources/thread.json' with { type: 'json' };
import message from './resources/message.json' with { type: 'json' };
import threadSummary from './resources/thread_summary.json' with { type: 'json' };
import listThreadsIn from './tools/list_threads.input.json' with { type: 'json' };
import listThreadsOut from './tools/list_threads.output.json' with { type: 'json' };
import getThreadIn from './tools/get_thread.input.json' with { type: 'json' };
import getThreadOut from './tools/get_thread.output.json' with { type: 'json' };
import searchInboxIn from './tools/search_inbox.input.json' with { type: 'json' };
import searchInboxOut from './tools/search_inbox.output.json' with { type: 'json' };
import triageIn from './tools/triage_message.input.json' with { type: 'json' };
import triageOut from './tools/triage_message.output.json' with { type: 'json' };
import extractIn from './tools/extract_to_schema.input.json' with { type: 'json' };
import extractOut from './tools/extract_to_schema.output.json' with { type: 'json' };
import draftIn from './tools/draft_reply_with_policy.input.json' with { type: 'json' };
import draftOut from './tools/draft_reply_with_policy.output.json' with { type: 'json' };
import sendIn from './tools/send_reply.input.json' with { type: 'json' };
import sendOut from './tools/send_reply.output.json' with { type: 'json' };

/**
 * The NeuralMail JSON Schemas (copied verbatim from ../shared/contracts/neuralmail, which is
 * normative). Imported statically so bundles carry them and nothing outside the repo is read.
 */
export const CONTRACT_SCHEMAS: Array<Record<string, unknown>> = [
  types, errors, inbox, thread, message, threadSummary,
  listThreadsIn, listThreadsOut, getThreadIn, getThreadOut, searchInboxIn, searchInboxOut,
  triageIn, triageOut, extractIn, extractOut, draftIn, draftOut, sendIn, sendOut,
];

export const CONTRACT_BASE = 'https://mailroom.local/contracts/neuralmail/';

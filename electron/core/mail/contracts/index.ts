import types from './types.json';
import errors from './errors.json';
import inbox from './resources/inbox.json';
import thread from './resources/thread.json';
import message from './resources/message.json';
import threadSummary from './resources/thread_summary.json';
import listThreadsIn from './tools/list_threads.input.json';
import listThreadsOut from './tools/list_threads.output.json';
import getThreadIn from './tools/get_thread.input.json';
import getThreadOut from './tools/get_thread.output.json';
import searchInboxIn from './tools/search_inbox.input.json';
import searchInboxOut from './tools/search_inbox.output.json';
import triageIn from './tools/triage_message.input.json';
import triageOut from './tools/triage_message.output.json';
import extractIn from './tools/extract_to_schema.input.json';
import extractOut from './tools/extract_to_schema.output.json';
import draftIn from './tools/draft_reply_with_policy.input.json';
import draftOut from './tools/draft_reply_with_policy.output.json';
import sendIn from './tools/send_reply.input.json';
import sendOut from './tools/send_reply.output.json';

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

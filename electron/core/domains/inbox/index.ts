/**
 * The inbox's public face: what other domains, the host and the tests may use. Everything else
 * in this folder is internal and may move freely (`npm run depcheck` enforces that).
 *
 * The inbox: rules, analysis (entity resolution through the vault index), execution with a
 * crash-safe journal and undo, capture (brain_inbox_save, drag-and-drop) and learning from review.
 */
export { createInbox, type InboxDeps, type InboxApi, type InboxDomain, type CaptureFile } from './domain';
export { inboxCommands } from './cli';
export { analyzeOne, confidenceOf, renderDestination, isDestination, INBOX_FOLDER, RELIABILITY, type AnalysisDetail, type Evidence, type EvidenceKind } from './analyze';
export { ExampleStore, type Example, type RuleSuggestion } from './learn';
export { parseRules, defaultRules, ruleMatches, partialMention, RULES_PATH, type Rules, type Rule } from './rules';
export { extractEntities, knownNames, type FoundEntity } from './entities';
export { InboxJournal } from './execute';
export { saveItem, type SaveInput, type SaveResult } from './capture';
export type { JournalBatch, JournalStep } from './journal';
export * from './contract';

import { defineTool } from '../../../kernel/tool';
import { AnalyzeInput, AnalyzeResult } from '../contract';

export const inboxAnalyzeTool = (analyze: (a: { paths?: string[]; limit?: number }) => Promise<AnalyzeResult>) =>
  defineTool({
    name: 'inbox_analyze',
    title: 'Analyze the inbox',
    description:
      'Suggests what to do with each inbox item — move (with a destination path), merge (into an existing note), delete (empty, junk or duplicate) or keep (only when nothing places it) — with confidence (from the kinds of evidence: rules, hints, the person\'s earlier decisions, entities, similar notes, folder profiles), short reasoning, the entities found and where they live in the vault, and the rules from _brain_config/inbox_rules.md that matched. needs_review lists suggestions below the rules\' confidence threshold: ask about those. Modifies nothing; show the suggestions to the person, then call inbox_execute with the approved actions. rules_unparsed lists rules the server could not apply: apply them yourself.',
    annotations: { readOnlyHint: true },
    input: AnalyzeInput,
    output: AnalyzeResult,
    handler: (args) => analyze(args),
  });

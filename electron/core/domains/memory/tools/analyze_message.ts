import { defineTool } from '../../../kernel/tool';
import type { MemoryService } from '../service';
import { AnalyzeMessageInput } from '../../../../../shared/contract/memory';
import { AnalysisDto } from '../../../../../shared/contract/nlp';

export const analyzeMessageTool = (svc: MemoryService) =>
  defineTool({
    name: 'analyze_message',
    title: 'Analyze a message for memory',
    description:
      'Reads one user message with the on-device models and says whether to save it: action_recommendation is MUST_SAVE (the user explicitly asked to remember), SHOULD_SAVE (a preference, decision, fact or update), SHOULD_SEARCH (the user asks about something saved) or NONE. Also returns intent with probabilities, entities with character spans, suggested tags and strength (0–2), and a similar stored memory if there is one. Pass up to 10 earlier messages as context so "yes, let\'s do that" is understood.',
    annotations: { readOnlyHint: true },
    input: AnalyzeMessageInput,
    output: AnalysisDto,
    handler: async ({ message, context }) => svc.analyze(message, context),
  });

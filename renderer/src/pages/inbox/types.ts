/** The inbox API's DTOs as the renderer sees them (mirrors electron/core/domains/inbox/contract.ts). */
export type InboxAction = 'move' | 'keep' | 'delete' | 'merge';

export interface InboxItem {
  path: string;
  title: string;
  summary: string;
  entities: string[];
  entity_locations: Record<string, string[]>;
  suggested_action: InboxAction;
  destination: string | null;
  confidence: number;
  reasoning: string;
  rules_matched: string[];
}

export interface InboxList {
  items: InboxItem[];
  count: number;
  threshold: number;
  rules_loaded: boolean;
  rules_unparsed: string[];
  items_skipped: string[];
  /** Suggestions below the rules' threshold: shown for review (they stay moves). */
  needs_review?: string[];
  /** Rule lines proposed after repeated edits toward one folder. */
  rule_suggestions?: RuleSuggestion[];
}

export interface RuleSuggestion {
  id: number;
  keyword: string;
  folder: string;
  line: string;
  support: number;
}

export interface Decision {
  action: InboxAction;
  destination?: string;
}

export interface ExecuteResult {
  results: Array<{ path: string; action: InboxAction; status: 'done' | 'planned' | 'kept' | 'error'; destination?: string; error?: { code: string; message: string } }>;
  commit: string | null;
  undo_id: string | null;
}

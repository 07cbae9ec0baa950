/**
 * The memory operations behind the MCP tools and REST routes: analyze (with a duplicate check
 * against stored memories), save (auto-enrich, merge duplicates), search.
 */
import type { Clock, Logger } from '../../kernel';
import { invalidArgument } from '../../kernel/errors';
import { assertSize, entityStrings, findDuplicate, suggestTags, DUPLICATE_THRESHOLD, type Analysis, type NlpDomain } from '../nlp';
import { MemoryStore, type Memory } from './store';
import { rankMemories } from './search';

export interface SaveArgs {
  content: string;
  entities?: string[];
  tags?: string[];
  strength?: number;
  source?: string;
  on_duplicate?: 'merge' | 'create';
}

export interface SaveResult {
  status: 'created' | 'merged' | 'created_despite_duplicate';
  memory: Memory;
  duplicate_of?: string;
  similarity?: number;
  enriched: { entities: boolean; tags: boolean; strength: boolean };
}

const union = (a: readonly string[], b: readonly string[]) => {
  const out = [...a];
  for (const x of b) if (!out.some((y) => y.toLowerCase() === x.toLowerCase())) out.push(x);
  return out;
};

export class MemoryService {
  constructor(
    private readonly nlp: NlpDomain,
    readonly store: MemoryStore,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  private duplicateOf(content: string) {
    const hit = findDuplicate(content, this.store.list());
    return hit ? { id: hit.match.id, path: hit.match.path, similarity: hit.similarity, content: hit.match.content } : undefined;
  }

  analyze(message: string, context?: string[]): Promise<Analysis> {
    return this.nlp.analyze(message, { context, findDuplicate: async (m) => this.duplicateOf(m) });
  }

  async save(args: SaveArgs): Promise<SaveResult> {
    assertSize(args.content, 'content');
    const content = args.content.trim();
    if (!/[\p{L}\p{N}]/u.test(content)) throw invalidArgument('content is empty; pass the text to remember.');
    const needsAnalysis = args.entities === undefined || args.tags === undefined || args.strength === undefined;
    const analysis = needsAnalysis ? await this.nlp.analyze(content) : undefined;
    const entities = args.entities ?? entityStrings(analysis?.entities ?? []);
    const intent = analysis?.intent;
    const tags = args.tags ?? (analysis ? analysis.suggested_tags : suggestTags(content, 'SAVE_FACT', []));
    // Saving is itself an explicit request, so strength starts from "worth keeping" (≥ 1).
    const strength = args.strength ?? Math.max(1, analysis?.suggested_strength ?? 1);
    const enriched = { entities: args.entities === undefined, tags: args.tags === undefined, strength: args.strength === undefined };
    const now = new Date(this.clock.now()).toISOString();

    const existing = findDuplicate(content, this.store.list(), DUPLICATE_THRESHOLD);
    if (existing && args.on_duplicate !== 'create') {
      const m = existing.match;
      const merged: Memory = {
        ...m,
        // Keep the stored wording; add the new one only if it says something the old did not.
        content: existing.similarity >= 0.97 || m.content.includes(content) ? m.content : `${m.content}\n\n${content}`,
        entities: union(m.entities, entities),
        tags: union(m.tags, tags),
        strength: Math.min(2, Math.round((Math.max(m.strength, strength) + 0.1) * 10) / 10),
        updated: now,
        reinforced: m.reinforced + 1,
      };
      await this.store.write(merged, `memory: reinforce ${m.id}`);
      this.log.info('memory merged', { id: m.id, similarity: existing.similarity });
      return { status: 'merged', memory: merged, duplicate_of: m.id, similarity: existing.similarity, enriched };
    }
    const { id, path } = this.store.newPath(content, now);
    const memory: Memory = { id, path, content, entities, tags, strength, intent, source: args.source, created: now, updated: now, reinforced: 0 };
    await this.store.write(memory, `memory: ${id}`);
    this.log.info('memory saved', { id });
    return existing
      ? { status: 'created_despite_duplicate', memory, duplicate_of: existing.match.id, similarity: existing.similarity, enriched }
      : { status: 'created', memory, enriched };
  }

  search(args: { query: string; entities?: string[]; tags?: string[]; limit?: number }) {
    const all = this.store.list();
    const hits = rankMemories(all, { query: args.query, entities: args.entities, tags: args.tags, limit: args.limit ?? 10 });
    return { results: hits.map((h) => ({ ...h.memory, score: h.score })), total: hits.length };
  }
}

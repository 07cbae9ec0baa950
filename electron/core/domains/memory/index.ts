/**
 * Memory: analyze_message, save_memory and search_memory over markdown notes in the vault's
 * `memory/` folder, enriched by the nlp domain.
 */
import type { CoreContext, Domain } from '../../kernel/types';
import { invokeTool } from '../../kernel/tool';
import { implement } from '../../kernel/route';
import { memoryRoutes as R } from '../../../../shared/contract/memory';
import type { ReplyOf } from '../../../../shared/contract/route';
import type { NlpDomain } from '../nlp';
import { MemoryStore, type MemoryVault } from './store';
import { MemoryService } from './service';
import { analyzeMessageTool } from './tools/analyze_message';
import { saveMemoryTool } from './tools/save_memory';
import { searchMemoryTool } from './tools/search_memory';

export { MemoryStore, MEMORY_FOLDER, parseMemory, renderMemory, type Memory, type MemoryVault } from './store';
export { MemoryService } from './service';

export interface MemoryDeps {
  nlp: NlpDomain;
  /** The vault domain, for journaled, git-committed writes; without it memories are written atomically to disk. */
  vault?: MemoryVault;
}

export function createMemory(ctx: CoreContext, deps: MemoryDeps): Domain & { service: MemoryService } {
  const store = new MemoryStore(ctx.config.vaultDir, deps.vault);
  const service = new MemoryService(deps.nlp, store, ctx.clock, ctx.log.child('memory'));
  const analyze = analyzeMessageTool(service);
  const save = saveMemoryTool(service);
  const search = searchMemoryTool(service);
  return {
    name: 'memory',
    service,
    tools: [analyze, save, search],
    routes: [
      // The bodies are the tools' inputs (the contract's schemas), parsed by invokeTool.
      implement(R.analyze, async (req) => (await invokeTool(analyze, req.body, { origin: 'api' })) as ReplyOf<typeof R.analyze>),
      implement(R.save, async (req) => (await invokeTool(save, req.body, { origin: 'api' })) as ReplyOf<typeof R.save>),
      implement(R.search, async (req) => (await invokeTool(search, { query: req.query.q, limit: req.query.limit }, { origin: 'api' })) as ReplyOf<typeof R.search>),
    ],
    counts: () => ({ memories: store.count() }),
  };
}

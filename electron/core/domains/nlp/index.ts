/**
 * On-device understanding: the public face of the nlp domain. `createNlp` loads the shipped
 * ONNX models (or the ones the config points at) and falls back to heuristics when they cannot
 * load, so every caller always has an answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CoreContext, Domain } from '../../kernel/types';
import { parseWith } from '../../kernel/tool';
import { implement } from '../../kernel/route';
import { nlpRoutes as R, type ModelsInfo } from '../../../../shared/contract/nlp';
import type { EntitySpan, IntentResult, Nlp } from './contract';
import { heuristicNlp } from './heuristic';
import { OnnxNlp } from './onnx';
import { analyzeMessage, type AnalyzeOptions, type Analysis } from './analyze';
import { loadUrgencyHead, type UrgencyHead } from './urgency-head';

export * from './contract';
export { analyzeMessage, entityStrings, ACTIONS, type Analysis, type Action, type AnalyzeOptions } from './analyze';
export { detectPhrases, seedPhraseDetector, type PhraseSignals } from './phrases';
export { scoreImportance } from './importance';
export { suggestTags, slug } from './tags';
export { similarity, findDuplicate, DUPLICATE_THRESHOLD } from './dedup';
export { RecentMessages, type ContextMessage } from './context';
export { MAX_CHARS, assertSize } from './limits';
export { tokenize, type Token } from './tokenize';
export { heuristicNlp } from './heuristic';
export { urgencyHeadText, loadUrgencyHead, HEAD_LEVELS, type UrgencyHead, type HeadProbs } from './urgency-head';
export type { ModelCard } from './cards';

export type { ModelsInfo } from '../../../../shared/contract/nlp';

export interface NlpDomain extends Nlp, Domain {
  analyze(message: string, opts?: AnalyzeOptions): Promise<Analysis>;
  info(): ModelsInfo;
}


/** Paths of the models: `config.models.intent` / `.ner` / `.urgency` override the shipped ones in `<appRoot>/models`. */
export function modelPaths(ctx: Pick<CoreContext, 'config'>): { intent: string; ner: string; urgency: string } {
  const dir = path.join(ctx.config.appRoot, 'models');
  const o = ctx.config.file.models ?? {};
  return { intent: path.resolve(o.intent ?? path.join(dir, 'intent.onnx')), ner: path.resolve(o.ner ?? path.join(dir, 'ner.onnx')), urgency: path.resolve(o.urgency ?? path.join(dir, 'urgency.onnx')) };
}

export async function createNlp(ctx: CoreContext): Promise<NlpDomain> {
  const log = ctx.log.child('nlp');
  const paths = modelPaths(ctx);
  const t0 = performance.now();
  let onnx: OnnxNlp | undefined;
  let error: string | undefined;
  try {
    onnx = await OnnxNlp.load(paths);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
    log.warn('ONNX models did not load; using heuristic fallback', { error, ...paths });
  }
  // The mail urgency head is optional: without it mail urgency is read from the signals alone.
  // (It is not shipped: `npm run train:urgency` builds it; see models/README.md.)
  let urgencyHead: UrgencyHead | undefined;
  if (fs.existsSync(paths.urgency)) {
    try {
      urgencyHead = await loadUrgencyHead(paths.urgency);
    } catch (e) {
      log.warn('mail urgency head did not load; urgency uses its signals alone', { error: e instanceof Error ? e.message : String(e), path: paths.urgency });
    }
  }
  const loadMs = Math.round((performance.now() - t0) * 10) / 10;
  const impl: Nlp = onnx ?? heuristicNlp;
  log.info('nlp ready', { backend: impl.backend, load_ms: loadMs });

  const info = (): ModelsInfo => ({
    backend: impl.backend,
    load_ms: loadMs,
    ...(error ? { error } : {}),
    models: [
      ...(onnx ? [{ path: onnx.intentModel.path, card: onnx.intentModel.card }, { path: onnx.nerModel.path, card: onnx.nerModel.card }] : []),
      ...(urgencyHead ? [{ path: paths.urgency, card: urgencyHead.card }] : []),
    ],
  });
  const analyze = (message: string, opts?: AnalyzeOptions) => analyzeMessage(impl, message, opts);

  return {
    name: 'nlp',
    get backend() {
      return impl.backend;
    },
    entities: (text: string): Promise<EntitySpan[]> => impl.entities(text),
    intent: (text: string): Promise<IntentResult> => impl.intent(text),
    mailUrgency: async (text: string) => urgencyHead?.probs(text),
    analyze,
    info,
    routes: [
      implement(R.models, () => info()),
      implement(R.analyze, async (req) => {
        const body = parseWith(R.analyze.body, req.body, 'body');
        return analyze(body.message, { context: body.context });
      }),
    ],
    async stop() {
      await onnx?.dispose();
      await urgencyHead?.dispose();
    },
  };
}

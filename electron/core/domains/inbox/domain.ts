/** Builds the inbox domain (its public face is ./index.ts). */
import path from 'node:path';
import { invokeTool } from '../../kernel/tool';
import { MailroomError, notFound } from '../../kernel/errors';
import { RawResponse, type CoreContext, type Domain } from '../../kernel/types';
import type { Nlp } from '../nlp';
import { inboxSchema } from '../../kernel/db/migrations/002_inbox';
import { atomicWrite, freePath, listVaultFiles, normalizeRel, parseNote, readVaultFile, sha256, tryReadVaultFile, vaultFileStat, type VaultApi } from '../vault';
import { HubEvent, type ReplyOf } from '../../../../shared/contract';
import { inboxRoutes as R } from './contract';
import { implement } from '../../kernel/route';
import { analyzeItem, INBOX_FOLDER, placeItem, type AnalysisDetail } from './analyze';
import { AnalysisCache } from './analysis-cache';
import { loadFilingWeights, type FilingWeights } from './filing-model';
import { saveItem, type SaveInput, type SaveResult } from './capture';
import type { ActionInput, AnalysisItem, AnalyzeResult, ExampleRow, ExecuteResult, UndoResult } from './contract';
import { InboxJournal } from './execute';
import { ExampleStore, type NewExample, type RuleSuggestion } from './learn';
import { folderProfiles, profilesState, warmProfiles, type ProfilesState } from './profiles';
import { warmConventions } from './vault-conventions';
import { isDestination } from './analyze';
import { appendLooseRule } from './rules';
import { defaultRules, parseRules, RULES_PATH, type Rules } from './rules';
import type { InboxAction } from './contract';
import { brainInboxSaveTool } from './tools/brain_inbox_save';
import { inboxAnalyzeTool } from './tools/inbox_analyze';
import { inboxExecuteTool } from './tools/inbox_execute';
import { inboxUndoTool } from './tools/inbox_undo';
import { clip } from './text';
import { journalBatches, journalSteps, type JournalBatch, type JournalStep } from './journal';
import { countRows } from '../../kernel/db';


export interface InboxDeps {
  vault: VaultApi;
  nlp?: Nlp;
  /** Learned filing weights; default `<appRoot>/models/filing-weights.json` (hand values when absent or invalid), null for the hand values. */
  weights?: FilingWeights | null;
}

export interface CaptureFile {
  name: string;
  content: string;
  encoding?: 'utf8' | 'base64';
}

export interface InboxApi {
  save(input: SaveInput): Promise<SaveResult>;
  analyze(args?: { paths?: string[]; limit?: number }): Promise<AnalyzeResult>;
  /** `origin` labels the examples the decisions become ('review' from the Inbox page and REST, 'mcp' from inbox_execute). */
  execute(args: { actions: ActionInput[]; dry_run?: boolean }, origin?: string): Promise<ExecuteResult>;
  undo(undoId: string): Promise<UndoResult>;
  /** Current inbox items with their (cached) analyses, for the review page. */
  list(): Promise<AnalyzeResult & { count: number; threshold: number; rule_suggestions: RuleSuggestion[] }>;
  capture(input: { text?: string; title?: string; files?: CaptureFile[] }): Promise<{ saved: SaveResult[] }>;
  rules(): Rules;
  /** Labelled examples from review (learning loop). */
  examples: ExampleStore;
  /** Open rule suggestions (after repeated edits toward one folder). */
  ruleSuggestions(): RuleSuggestion[];
  /** Appends the suggested rule line to the rules file (atomic write + commit) and applies it. */
  acceptRule(id: number): Promise<{ line: string; path: string; commit?: string }>;
  dismissRule(id: number): RuleSuggestion;
  /** Resolves when pending automatic analysis has run (tests). */
  idle(): Promise<void>;
  /** The folder profiles filing compares against: built in the background once the index is ready. */
  profiles(): ProfilesState;
  /** The journal of filing batches, read back (History). */
  journal: { batches(limit: number): JournalBatch[]; steps(batchId: string): JournalStep[] };
}

export type InboxDomain = Domain & InboxApi;

const suggestionId = (raw: string | undefined) => {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw new MailroomError('invalid_argument', `Suggested rule ids are positive integers (got ${JSON.stringify(raw)}).`);
  return id;
};

/** Notes changed: the profiles are brought up to date this long after the last change. */
const WARM_DELAY_MS = 300;

const TEXT_EXT = /\.(md|markdown|txt|text|csv|json|ya?ml|html?|org)$/i;

export function createInbox(ctx: CoreContext, deps: InboxDeps): InboxDomain {
  const log = ctx.log.child('inbox');
  const { vault } = deps;
  const db = ctx.stateDb;
  inboxSchema(db);
  const journal = new InboxJournal({ db, vault, trashDir: path.join(ctx.config.dataDir, 'trash'), clock: ctx.clock, log });
  const examples = new ExampleStore(db, () => ctx.clock.now());
  const weights = deps.weights === null ? undefined : (deps.weights ?? loadFilingWeights(ctx.config.appRoot));
  log.info(weights ? 'filing weights loaded from models/filing-weights.json' : 'filing weights: hand values');
  let rulesCache: { key: string; rules: Rules } | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** Settles when the pending debounce fires or is cancelled, so idle() waits without polling. */
  let fired: { promise: Promise<void>; settle: () => void } | undefined;
  const settleFired = () => {
    fired?.settle();
    fired = undefined;
  };
  let auto: Promise<void> = Promise.resolve();
  let stopped = false;
  const lifetime = new AbortController();
  const offs: Array<() => void> = [];

  // Rules and inbox items are read under the vault rule (no hidden files, no symlink that
  // leads outside the vault): a rules file that is such a symlink reads as missing.
  const rules = (): Rules => {
    const st = vaultFileStat(vault.root, RULES_PATH);
    const key = st ? `${st.mtimeMs}:${st.size}` : 'missing';
    if (rulesCache?.key === key) return rulesCache.rules;
    const f = st ? tryReadVaultFile(vault.root, RULES_PATH) : undefined;
    const r = f ? parseRules(f.data.toString('utf8')) : defaultRules();
    rulesCache = { key: f ? key : 'missing', rules: r };
    return r;
  };

  const inboxFiles = (): string[] => listVaultFiles(vault.root, INBOX_FOLDER, (r) => /\.md$/i.test(r));

  /**
   * Analyses are reused while the item's bytes, the vault index (its generation), the rules, what
   * was learnt (`learnt`, bumped whenever cached rows are marked stale) and the day are the same.
   */
  const analyses = new AnalysisCache();
  let learnt = 0;
  const markStale = () => {
    learnt++;
    db.prepare("UPDATE inbox_analyses SET hash = 'stale'").run();
  };

  const analyzePaths = async (paths: string[]): Promise<Array<{ detail: AnalysisDetail; hash: string }>> => {
    const r = rules();
    const taken = new Set<string>();
    const out: Array<{ detail: AnalysisDetail; hash: string }> = [];
    for (const rel of paths) {
      let text: string;
      try {
        text = readVaultFile(vault.root, rel).data.toString('utf8');
      } catch (e) {
        if (e instanceof MailroomError && e.status !== 404) throw e;
        throw notFound(`No note at ${rel}; inbox items are listed by inbox_analyze without paths.`, { path: rel }, 'note_not_found');
      }
      const hash = sha256(text);
      const now = ctx.clock.now();
      const key = `${hash}|${vault.index.generation}|${rulesCache?.key ?? ''}|${learnt}|${new Date(now).toISOString().slice(0, 10)}`;
      const core = await analyses.get(rel, key, () => analyzeItem(rel, text, { vault, nlp: deps.nlp, rules: r, now, memory: (p) => examples.memory(p), weights }));
      out.push({ detail: placeItem(core, { vault, taken }), hash });
    }
    return out;
  };

  const skippedReason = (i: AnalysisItem) => `${i.path} — ${clip(i.reasoning || 'nothing places it', 60)}`;

  /**
   * Keep means "nowhere to put it"; the rules' threshold no longer turns moves into keeps — it
   * marks suggestions below it for review (and is what the page's "accept all above" preselects).
   */
  const triage = (items: AnalysisItem[], threshold: number) => ({
    skipped: items.filter((i) => i.suggested_action === 'keep').map(skippedReason),
    needsReview: items.filter((i) => i.suggested_action !== 'keep' && i.suggested_action !== 'delete' && i.confidence < threshold).map((i) => i.path),
  });

  const upsertCache = db.prepare(
    `INSERT INTO inbox_analyses (path, hash, analyzed_at, result) VALUES (?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET hash = excluded.hash, analyzed_at = excluded.analyzed_at, result = excluded.result,
       notified = CASE WHEN inbox_analyses.hash = excluded.hash OR inbox_analyses.hash = 'stale' THEN inbox_analyses.notified ELSE 0 END`,
  );

  const analyze = async (args: { paths?: string[]; limit?: number } = {}): Promise<AnalyzeResult> => {
    const limit = Math.max(1, Math.min(args.limit ?? 20, 100));
    const all = args.paths?.length ? [...new Set(args.paths.map((p) => normalizeRel(p)))] : inboxFiles();
    for (const p of all) vault.resolve(p);
    const chosen = all.slice(0, limit);
    const r = rules();
    const results = await analyzePaths(chosen);
    const items = results.map((x) => x.detail.item);
    const { skipped, needsReview } = triage(items, r.threshold);
    if (all.length > chosen.length) skipped.push(`${all.length - chosen.length} more items not analyzed (limit ${limit})`);
    return {
      items,
      rules_loaded: r.loaded,
      rules_applied: [...new Set(items.flatMap((i) => i.rules_matched))],
      rules_unparsed: r.unparsed,
      items_skipped: skipped,
      needs_review: needsReview,
      threshold: r.threshold,
    };
  };

  /** Analyzes new or changed inbox items, forgets removed ones, notifies and updates the badge. */
  const refreshAnalyses = async (): Promise<{ fresh: number; count: number }> => {
    const files = inboxFiles();
    analyses.keepOnly(new Set(files));
    const cached = new Map((db.prepare('SELECT path, hash FROM inbox_analyses').all() as Array<{ path: string; hash: string }>).map((x) => [x.path, x.hash]));
    const todo: string[] = [];
    for (const f of files) {
      let h: string;
      try {
        const file = tryReadVaultFile(vault.root, f);
        if (!file) continue;
        h = sha256(file.data);
      } catch {
        continue;
      }
      if (cached.get(f) !== h) todo.push(f);
      cached.delete(f);
    }
    // Rows of items that left the inbox stay: an undo that brings one back byte for byte
    // finds its analysis and does not announce it as new again.
    if (todo.length) {
      const results = await analyzePaths(todo);
      const now = new Date(ctx.clock.now()).toISOString();
      db.transaction(() => {
        for (const x of results) upsertCache.run(x.detail.item.path, x.hash, now, JSON.stringify(x.detail.item));
      })();
    }
    const fresh = countRows(db, 'SELECT count(*) AS n FROM inbox_analyses WHERE notified = 0');
    if (fresh > 0) {
      db.prepare('UPDATE inbox_analyses SET notified = 1 WHERE notified = 0').run();
      ctx.platform.notify({ title: 'Mailroom inbox', body: `${fresh} new item${fresh === 1 ? '' : 's'} ready to file` });
    }
    ctx.platform.setBadge('inbox', files.length);
    if (todo.length) ctx.hub.broadcast(HubEvent.inboxChanged, 'analyzed', files.length);
    return { fresh, count: files.length };
  };

  /**
   * The folder profiles (every destination note's terms, the folder centroids, the nearest-notes
   * index) are built in background slices once the vault index is ready, and again shortly after
   * notes change (only changed notes are read again), so no analysis builds them on its own path;
   * then the name dictionary is brought up to date (one go: its first build at 50,000 notes is the
   * longest step, ~0.5 s of CPU).
   */
  let warmTimer: NodeJS.Timeout | undefined;
  let warming: Promise<void> = Promise.resolve();
  const startWarm = () => {
    if (warmTimer) clearTimeout(warmTimer);
    warmTimer = undefined;
    warming = warming
      .then(async () => {
        // (The name dictionary needs no warm-up: it is read from the index when asked.)
        const p = await warmProfiles(vault.index, isDestination, { signal: lifetime.signal });
        // What the vault teaches about its own conventions (document types, the per-vault fit): cached per profiles.
        if (p && !stopped) await warmConventions(p, vault.index, isDestination, { signal: lifetime.signal });
      })
      .catch((e: unknown) => log.warn('folder profiles warm-up failed', { error: String(e) }));
  };
  const scheduleWarm = (delayMs: number) => {
    if (stopped || vault.indexStatus().state !== 'ready') return;
    if (warmTimer) clearTimeout(warmTimer);
    warmTimer = setTimeout(startWarm, delayMs);
  };

  const scheduleRefresh = () => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    if (!fired) {
      let settle = () => {};
      const promise = new Promise<void>((resolve) => (settle = resolve));
      fired = { promise, settle };
    }
    timer = setTimeout(() => {
      timer = undefined;
      // A warm-up under way (or due: notes changed too) finishes first, in its slices (the analysis
      // would otherwise do it at once, on the loop).
      if (warmTimer) startWarm();
      auto = auto.then(() => warming).then(() => refreshAnalyses().then(() => undefined)).catch((e: unknown) => log.warn('automatic inbox analysis failed', { error: String(e) }));
      settleFired();
    }, 150);
  };

  const afterChange = () => {
    ctx.platform.setBadge('inbox', inboxFiles().length);
    ctx.hub.broadcast(HubEvent.inboxChanged, 'executed', inboxFiles().length);
    scheduleRefresh();
  };

  const save = async (input: SaveInput) => {
    const r = await saveItem(vault, input, ctx.clock.now());
    log.info('saved', { path: r.path, filed: r.filed });
    const count = inboxFiles().length;
    ctx.hub.broadcast(HubEvent.inboxChanged, r.filed ? 'filed' : 'saved', count);
    ctx.platform.setBadge('inbox', count);
    return r;
  };

  /** What the person decided, before the files move: the item's text and the suggestion it had. */
  const pendingExamples = async (actions: ActionInput[], origin: string) => {
    const out = new Map<string, NewExample>();
    const cached = db.prepare('SELECT hash, result FROM inbox_analyses WHERE path = ?');
    const texts = new Map<string, string>();
    const fresh = new Map<string, AnalysisItem>();
    for (const a of actions) {
      const rel = normalizeRel(a.path);
      const file = tryReadVaultFile(vault.root, rel);
      if (!file) continue;
      const text = file.data.toString('utf8');
      texts.set(rel, text);
      const row = cached.get(rel) as { hash: string; result: string } | undefined;
      if (row && row.hash === sha256(text)) fresh.set(rel, JSON.parse(row.result) as AnalysisItem);
    }
    // What was suggested: the cached analysis of these bytes, or (not analyzed yet) a fresh one.
    const missing = [...texts.keys()].filter((p) => !fresh.has(p));
    if (missing.length) {
      try {
        for (const x of await analyzePaths(missing)) fresh.set(x.detail.item.path, x.detail.item);
      } catch (e) {
        log.warn('could not analyze items before recording examples', { error: String(e) });
      }
    }
    for (const a of actions) {
      const rel = normalizeRel(a.path);
      const text = texts.get(rel);
      if (text === undefined) continue;
      const s = fresh.get(rel);
      const note = parseNote(rel, text);
      out.set(rel, {
        batch_id: null,
        path: rel,
        title: note.title,
        text: note.body,
        action: a.action as InboxAction,
        folder: null,
        destination: a.destination ?? null,
        suggested_action: s?.suggested_action ?? null,
        suggested_destination: s?.destination ?? null,
        suggested_confidence: s?.confidence ?? null,
        origin,
      });
    }
    return out;
  };

  /** Examples changed: remaining items are analyzed again with what was learnt (not announced as new). */
  const relearn = () => {
    markStale();
    try {
      examples.proposeRules(folderProfiles(vault.index, isDestination), rules());
    } catch (e) {
      log.warn('rule suggestions failed', { error: String(e) });
    }
  };

  const execute = async (args: { actions: ActionInput[]; dry_run?: boolean }, origin = 'review'): Promise<ExecuteResult> => {
    const pending = args.dry_run ? new Map<string, NewExample>() : await pendingExamples(args.actions, origin);
    const r = await journal.execute(args.actions, { dryRun: args.dry_run });
    const { touched, ...out } = r;
    if (!args.dry_run) {
      const learnt: NewExample[] = [];
      for (const x of out.results) {
        const e = pending.get(normalizeRel(x.path));
        if (!e || (x.status !== 'done' && x.status !== 'kept')) continue;
        learnt.push({ ...e, batch_id: out.undo_id, destination: x.destination ?? e.destination });
      }
      if (learnt.length) {
        examples.record(learnt);
        relearn();
      }
    }
    if (!args.dry_run && touched.length) afterChange();
    else if (!args.dry_run) scheduleRefresh();
    return out;
  };

  const undo = async (undoId: string): Promise<UndoResult> => {
    const { touched, ...out } = await journal.undo(undoId);
    void touched;
    // The batch's decisions no longer teach anything.
    if (examples.withdraw(undoId)) markStale();
    afterChange();
    return out;
  };

  const acceptRule = async (id: number) => {
    const sug = examples.suggestion(id);
    if (!sug) throw notFound(`No suggested rule ${id}; GET /api/inbox/rules/suggestions lists them.`, { id }, 'rule_suggestion_not_found');
    if (sug.status !== 'open') throw new MailroomError('conflict', `Suggested rule ${id} was already ${sug.status}.`, { id });
    const current = tryReadVaultFile(vault.root, RULES_PATH)?.data.toString('utf8') ?? '';
    const next = appendLooseRule(current, sug.line);
    const w = await vault.writeNote(RULES_PATH, next, { message: `Mailroom: inbox rule "${sug.line.replace(/^-\s*/, '')}"` });
    examples.decide(id, 'accepted');
    rulesCache = undefined;
    markStale();
    scheduleRefresh();
    ctx.hub.broadcast(HubEvent.inboxChanged, 'rules', inboxFiles().length);
    return { line: sug.line, path: w.path, commit: w.commit };
  };

  const dismissRule = (id: number) => {
    const sug = examples.suggestion(id);
    if (!sug) throw notFound(`No suggested rule ${id}; GET /api/inbox/rules/suggestions lists them.`, { id }, 'rule_suggestion_not_found');
    if (sug.status === 'open') examples.decide(id, 'dismissed');
    return examples.suggestion(id)!;
  };

  const list = async () => {
    await refreshAnalyses();
    const r = rules();
    const present = new Set(inboxFiles());
    const rows = db.prepare<unknown[], { path: string; result: string }>('SELECT path, result FROM inbox_analyses ORDER BY path').all();
    const items = rows.filter((x) => present.has(x.path)).map((x) => JSON.parse(x.result) as AnalysisItem);
    return {
      items,
      count: items.length,
      threshold: r.threshold,
      rules_loaded: r.loaded,
      rules_applied: [...new Set(items.flatMap((i) => i.rules_matched))],
      rules_unparsed: r.unparsed,
      ...(({ skipped, needsReview }) => ({ items_skipped: skipped, needs_review: needsReview }))(triage(items, r.threshold)),
      rule_suggestions: examples.suggestions('open'),
    };
  };

  const capture: InboxApi['capture'] = async (input) => {
    const saved: SaveResult[] = [];
    if (input.text?.trim()) saved.push(await save({ content: input.text, title: input.title, processing_hints: { source: 'capture' } }));
    for (const f of input.files ?? []) {
      const name = path.basename(String(f.name ?? '').replace(/\\/g, '/')).replace(/^\.+/, '') || 'capture';
      const bytes = Buffer.from(f.content ?? '', f.encoding === 'base64' ? 'base64' : 'utf8');
      const isText = TEXT_EXT.test(name) && !bytes.includes(0);
      if (isText) {
        saved.push(await save({ content: bytes.toString('utf8'), title: name.replace(/\.[^.]+$/, ''), processing_hints: { source: `file:${name}` } }));
        continue;
      }
      // Other files are kept as attachments with a note that embeds them.
      const rel = await vault.exclusive(async () => {
        const abs = freePath(vault.resolve(`${INBOX_FOLDER}/attachments/${name}`));
        atomicWrite(abs, bytes);
        const r = path.relative(vault.root, abs).split(path.sep).join('/');
        await vault.commit([r], `Mailroom: capture ${name}`);
        return r;
      });
      saved.push(await save({ content: `![[${rel.slice(INBOX_FOLDER.length + 1)}]]\n`, title: name, processing_hints: { source: `file:${name}` } }));
    }
    if (!saved.length) throw new MailroomError('invalid_argument', 'Nothing to capture: drop text or files (give text or files[]).');
    return { saved };
  };

  const saveTool = brainInboxSaveTool(save);
  const analyzeTool = inboxAnalyzeTool(analyze);
  const executeTool = inboxExecuteTool(execute);
  const undoTool = inboxUndoTool(undo);

  return {
    name: 'inbox',
    save,
    analyze,
    execute,
    undo,
    list,
    capture,
    rules,
    examples,
    ruleSuggestions: () => examples.suggestions('open'),
    acceptRule,
    dismissRule,
    journal: { batches: (limit) => journalBatches(db, limit), steps: (batchId) => journalSteps(db, batchId) },
    async idle() {
      while (fired) await fired.promise;
      await auto;
    },
    profiles: () => profilesState(vault.index),
    tools: [saveTool, analyzeTool, executeTool, undoTool],
    routes: [
      // The tool-backed bodies are the tools' inputs (the contract's schemas), parsed by invokeTool.
      implement(R.list, () => list()),
      implement(R.analyze, async (req) => (await invokeTool(analyzeTool, req.body ?? {}, { origin: 'api' })) as ReplyOf<typeof R.analyze>),
      implement(R.execute, async (req) => (await invokeTool(executeTool, req.body, { origin: 'api' })) as ReplyOf<typeof R.execute>),
      implement(R.undo, async (req) => (await invokeTool(undoTool, req.body, { origin: 'api' })) as ReplyOf<typeof R.undo>),
      implement(R.save, async (req) => (await invokeTool(saveTool, req.body, { origin: 'api' })) as ReplyOf<typeof R.save>),
      implement(
        R.capture,
        async (req) => {
          const b = (req.body ?? {}) as { text?: unknown; content?: unknown; title?: unknown; files?: unknown };
          const text = b.text ?? b.content;
          if (text !== undefined && typeof text !== 'string') throw new MailroomError('invalid_argument', 'content (or text) must be a string.');
          if (b.files !== undefined && !Array.isArray(b.files)) throw new MailroomError('invalid_argument', 'files must be an array of { name, content, encoding? }.');
          const files = (b.files as unknown[] | undefined) ?? [];
          for (const f of files) {
            const ff = f as Partial<CaptureFile> | null;
            if (!ff || typeof ff.name !== 'string' || typeof ff.content !== 'string') throw new MailroomError('invalid_argument', 'each file needs a name and a content string (base64 with encoding: "base64").');
          }
          const r = await capture({ text, title: typeof b.title === 'string' ? b.title : undefined, files: files as CaptureFile[] });
          // The first saved item's fields at the top level, for the single-text case.
          return { ...r.saved[0], saved: r.saved };
        },
        { maxBytes: 32 * 1024 * 1024 },
      ),
      implement(R.batches, () => ({ batches: journal.lastBatches(20) })),
      implement(R.examplesJsonl, () => new RawResponse(200, examples.jsonl(), { 'content-type': 'application/x-ndjson; charset=utf-8', 'content-disposition': 'attachment; filename="inbox-examples.jsonl"' })),
      // exportRows builds plain JSON rows (with more fields than ExampleRow names).
      implement(R.examples, () => ({ count: examples.count(), examples: examples.exportRows() as ExampleRow[] })),
      implement(R.ruleSuggestions, () => ({ suggestions: examples.suggestions('open') })),
      implement(R.acceptRule, (req) => acceptRule(suggestionId(req.params.id))),
      implement(R.dismissRule, (req) => dismissRule(suggestionId(req.params.id))),
    ],
    counts: () => ({ inbox_items: inboxFiles().length }),
    async start() {
      const done = await journal.recover();
      if (done.length) log.info('recovered interrupted inbox batches', { batches: done });
      offs.push(
        ctx.events.on<{ paths: string[] }>('vault:changed', (p) => {
          if (p.paths.some((x) => x === RULES_PATH)) {
            // New rules: every item is re-analyzed, without announcing them as new again.
            rulesCache = undefined;
            markStale();
          }
          if (p.paths.some((x) => x.startsWith(INBOX_FOLDER + '/') || x === RULES_PATH)) scheduleRefresh();
          scheduleWarm(WARM_DELAY_MS);
        }),
        // The vault's background index finished: analyses made against a partial index are redone.
        ctx.events.on('vault:indexed', () => {
          scheduleWarm(0);
          markStale();
          scheduleRefresh();
        }),
      );
      await refreshAnalyses().catch((e: unknown) => log.warn('initial inbox analysis failed', { error: String(e) }));
      scheduleWarm(0);
    },
    async stop() {
      stopped = true;
      lifetime.abort();
      for (const off of offs.splice(0)) off();
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (warmTimer) clearTimeout(warmTimer);
      warmTimer = undefined;
      await warming;
      settleFired();
      await auto.catch(() => undefined);
      analyses.clear();
    },
  };
}

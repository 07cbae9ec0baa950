/** Builds the history domain (its public face is ./index.ts). */
import path from 'node:path';
import type { z } from 'zod';
import { MailroomError, notFound } from '../../kernel/errors';
import { parseWith } from '../../kernel/tool';
import type { CoreContext, Domain } from '../../kernel/types';
import type { VaultApi } from '../vault';
import type { InboxApi } from '../inbox';
import { toPosix } from '../vault';
import {
  historyRoutes as R,
  HistoryListQuery,
  type FileChange,
  type HistoryDetail,
  type HistoryEntry,
  type HistoryKind,
  type HistoryListReply,
  type HistoryUndo,
  type HistoryUndoReply,
} from '../../../../shared/contract/history';
import { implement } from '../../kernel/route';
import { isBinary, unifiedDiff } from './diff';
import type { BatchRow, InboxBatchLog, MailSentLog, RouterRunLog } from './ports';


/** The author of every commit Mailroom makes (electron/core/vault/git.ts). */
const MAILROOM_AUTHOR = 'Mailroom';
const GIT_DEPTH = 1000;

export interface HistoryDeps {
  vault: Pick<VaultApi, 'root' | 'git'>;
  inbox: Pick<InboxApi, 'undo'> & { journal: InboxBatchLog };
  /** The router's distribution runs (absent: no routed entries). */
  router?: { journal: RouterRunLog };
  /** The mail outbox's sent messages (absent: no sent entries). */
  mail?: { journal: MailSentLog };
}

export interface HistoryApi {
  /** A page of entries; the query is checked with the contract's HistoryListQuery (raw strings or numbers). */
  list(query?: z.input<typeof HistoryListQuery>): Promise<HistoryListReply>;
  detail(id: string): Promise<HistoryDetail>;
  undo(id: string): Promise<HistoryUndoReply>;
}

export type HistoryDomain = Domain & HistoryApi;

const WHY_NOT: Record<HistoryKind, string> = {
  inbox: '',
  undo: 'This entry is itself an undo; file the items again from the Inbox to redo it.',
  capture: 'A capture only adds a note; move or delete that note if you do not want it. Undo restores inbox filing batches.',
  memory: 'A memory is a note in the vault; edit or delete it there. Undo restores inbox filing batches.',
  rule: 'Remove the rule line from the inbox rules file to take it back.',
  vault: 'Not an inbox filing batch; restore files from the vault’s git history if you need to.',
  routed: 'Routed items were handed to another tool over MCP; take them back in that tool.',
  sent: 'Sent mail cannot be unsent.',
};

function kindOfMessage(message: string): HistoryKind {
  const [first = ''] = message.split('\n');
  if (/^Mailroom: file \d+ inbox item/.test(first)) return 'inbox';
  if (/^Mailroom: undo /.test(first)) return 'undo';
  if (/^Mailroom: (save "|file "|capture )/.test(first)) return 'capture';
  if (/^memory: /.test(first)) return 'memory';
  if (/^Mailroom: inbox rule /.test(first)) return 'rule';
  return 'vault';
}

const titleOf = (message: string) => (message.split('\n')[0] ?? '').replace(/^Mailroom: /, '').replace(/^memory: /, 'memory ').trim() || '(no message)';

function undoState(kind: HistoryKind, b: BatchRow | undefined): HistoryUndo {
  if (!b) return { possible: false, reason: WHY_NOT[kind], undone: false };
  if (b.kind === 'undo') return { possible: false, reason: WHY_NOT.undo, undone: false };
  if (b.status === 'undone') return { possible: false, reason: 'Already undone.', undone: true };
  if (b.status !== 'done') return { possible: false, reason: 'This batch did not finish; restart Mailroom to let it complete, then undo.', undone: false };
  return { possible: true, reason: null, undone: false };
}

const doneCount = (b: BatchRow) => (Array.isArray(b.results) ? b.results.filter((r) => (r as { status?: string }).status === 'done').length || null : null);

const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
function decodeCursor(c: string | undefined): number {
  if (!c) return 0;
  const m = /^o:(\d{1,7})$/.exec(Buffer.from(c, 'base64url').toString('utf8'));
  if (!m) throw new MailroomError('invalid_argument', 'cursor is not one this server gave out; start again without a cursor.', { cursor: c });
  return Number(m[1]);
}

export function createHistory(ctx: CoreContext, deps: HistoryDeps): HistoryDomain {
  const journals = {
    batches: (limit = 500) => deps.inbox.journal.batches(limit),
    steps: (batchId: string) => deps.inbox.journal.steps(batchId),
    runs: (limit = 500) => deps.router?.journal.runs(limit) ?? [],
    sent: (limit = 500) => deps.mail?.journal.sent(limit) ?? [],
    run: (runId: string) => deps.router?.journal.run(runId),
    sentOne: (key: string) => deps.mail?.journal.sentOne(key),
  };
  const { vault } = deps;
  const iso = (ms: number) => new Date(ms).toISOString();

  const rel = (abs: string | null): string | null => {
    if (!abs) return null;
    const r = path.relative(vault.root, abs);
    return r.startsWith('..') || path.isAbsolute(r) ? null : toPosix(r);
  };

  const entries = async (): Promise<{ entries: HistoryEntry[]; git: boolean; batches: Map<string, BatchRow> }> => {
    const g = vault.git();
    const gitOn = !!g?.enabled;
    const commits = gitOn ? await g!.commits(GIT_DEPTH) : [];
    const batches = journals.batches(GIT_DEPTH);
    const byId = new Map(batches.map((b) => [b.id, b]));
    const byCommit = new Map(batches.filter((b) => b.git_commit).map((b) => [b.git_commit!, b]));
    const out: HistoryEntry[] = [];
    const shown = new Set<string>();
    for (const c of commits) {
      if (c.author !== MAILROOM_AUTHOR) continue;
      const undoId = /undo id: (b_[\w]+)/.exec(c.message)?.[1];
      const b = byCommit.get(c.oid) ?? (undoId ? byId.get(undoId) : undefined);
      if (b) shown.add(b.id);
      const kind: HistoryKind = b ? (b.kind === 'undo' ? 'undo' : 'inbox') : kindOfMessage(c.message);
      out.push({ id: `git:${c.oid}`, kind, title: titleOf(c.message), at: iso(c.time), source: 'git', commit: c.oid, files: b ? doneCount(b) : null, batch_id: b?.id ?? null, undo: undoState(kind, b) });
    }
    for (const b of batches) {
      if (shown.has(b.id)) continue;
      const kind: HistoryKind = b.kind === 'undo' ? 'undo' : 'inbox';
      out.push({ id: `inbox:${b.id}`, kind, title: titleOf(b.message), at: b.finished_at ?? b.created_at, source: 'inbox', commit: b.git_commit, files: doneCount(b), batch_id: b.id, undo: undoState(kind, b) });
    }
    for (const r of journals.runs()) {
      const titles = r.titles.split(',');
      const title = `route ${r.items === 1 ? `"${titles[0]}"` : `${r.items} items`}${r.routes ? ` via ${r.routes.split(',').join(', ')}` : ''}${r.failed ? ` (${r.failed} failed)` : ''}`;
      out.push({ id: `routed:${r.run_id}`, kind: 'routed', title, at: r.at, source: 'router', commit: null, files: null, batch_id: null, undo: undoState('routed', undefined) });
    }
    for (const s of journals.sent()) {
      out.push({ id: `sent:${s.key}`, kind: 'sent', title: `send "${s.subject || '(no subject)'}" to ${s.to.join(', ')}`, at: s.at, source: 'mail', commit: null, files: null, batch_id: null, undo: undoState('sent', undefined) });
    }
    // Newest first; entries of the same second keep the order their source gave (git log is newest first).
    const order = new Map(out.map((e, i) => [e, i]));
    out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : order.get(a)! - order.get(b)!));
    return { entries: out, git: gitOn, batches: byId };
  };

  const textChange = (p: string, from: string | null, status: FileChange['status'], before?: Uint8Array | null, after?: Uint8Array | null): FileChange => {
    const binary = isBinary(before ?? undefined) || isBinary(after ?? undefined);
    if (binary) return { path: p, from, status, diff: null, binary: true, truncated: false };
    const dec = (b?: Uint8Array | null) => (b ? Buffer.from(b).toString('utf8') : '');
    const d = unifiedDiff(dec(before), dec(after), { from: status === 'added' ? '/dev/null' : `a/${from ?? p}`, to: status === 'deleted' ? '/dev/null' : `b/${p}` });
    return { path: p, from, status, diff: d.diff, binary: false, truncated: d.truncated };
  };

  /** A batch's changes from its journal steps (when the vault has no git). */
  const stepChanges = (b: BatchRow): FileChange[] =>
    journals.steps(b.id).flatMap((s): FileChange[] => {
      if (s.op === 'write') {
        const p = rel(s.dst);
        return p ? [textChange(p, null, 'modified', s.before_data, s.data)] : [];
      }
      const src = rel(s.src);
      const dst = rel(s.dst);
      if (src && dst) return [{ path: dst, from: src, status: 'moved', diff: null, binary: false, truncated: false }];
      if (src) return [{ path: src, from: null, status: 'deleted', diff: null, binary: false, truncated: false }];
      if (dst) return [{ path: dst, from: null, status: 'added', diff: null, binary: false, truncated: false }];
      return [];
    });

  const find = async (id: string) => {
    const all = await entries();
    const e = all.entries.find((x) => x.id === id);
    if (!e) throw notFound(`No history entry ${id}; list them with GET /api/history.`, { id }, 'history_not_found');
    return { entry: e, batch: e.batch_id ? all.batches.get(e.batch_id) : undefined };
  };

  const api: HistoryApi = {
    async list(raw = {}) {
      const q = parseWith(HistoryListQuery, raw, 'query');
      const offset = decodeCursor(q.cursor);
      const all = await entries();
      const filtered = q.kind ? all.entries.filter((e) => e.kind === q.kind) : all.entries;
      const page = filtered.slice(offset, offset + q.limit);
      return { entries: page, next_cursor: offset + q.limit < filtered.length ? encodeCursor(offset + q.limit) : null, git: all.git };
    },
    async detail(id) {
      const { entry, batch } = await find(id);
      if (entry.source === 'git' && entry.commit) {
        const g = vault.git()!;
        const message = (await g.commits(GIT_DEPTH)).find((c) => c.oid === entry.commit)?.message ?? entry.title;
        const changes = (await g.changes(entry.commit)).map((c) => textChange(c.path, c.from ?? null, c.status, c.before, c.after));
        return { entry, message, changes, facts: [] };
      }
      if (batch) return { entry, message: batch.message, changes: stepChanges(batch), facts: [] };
      if (entry.kind === 'routed') {
        const runId = entry.id.slice('routed:'.length);
        const run = journals.run(runId);
        const facts: Array<[string, string]> = run
          ? [
              ['Items', run.titles.split(',').join(', ')],
              ['Routes', run.routes || '—'],
              ['Tools', run.tools || '—'],
              ['Result', `${run.ok} ok${run.failed ? `, ${run.failed} failed` : ''}`],
            ]
          : [];
        return { entry, message: entry.title, changes: [], facts };
      }
      const key = entry.id.slice('sent:'.length);
      const s = journals.sentOne(key);
      const facts: Array<[string, string]> = s
        ? [
            ['From', s.from],
            ['To', s.to.join(', ')],
            ['Subject', s.subject || '(no subject)'],
            ['Sent', s.at],
          ]
        : [];
      return { entry, message: entry.title, changes: [], facts };
    },
    async undo(id) {
      const { entry } = await find(id);
      if (!entry.undo.possible || !entry.batch_id) {
        throw new MailroomError('undo_not_possible', entry.undo.reason ?? 'This entry cannot be undone.', { id, kind: entry.kind }, 409);
      }
      const r = await deps.inbox.undo(entry.batch_id);
      return { id, batch_id: entry.batch_id, restored: r.restored, commit: r.commit ?? null };
    },
  };

  return {
    name: 'history',
    ...api,
    routes: [
      implement(R.list, (req) => api.list(req.query), { queryName: 'query' }),
      implement(R.entry, (req) => api.detail(req.query.id)),
      implement(R.undo, (req) => api.undo(parseWith(R.undo.body, req.body, 'body').id)),
    ],
  };
}

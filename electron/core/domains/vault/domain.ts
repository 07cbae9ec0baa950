/** Builds the vault domain (its public face is ./index.ts). */
import fs from 'node:fs';
import { completeFrom } from '../../kernel/complete';
import { parseWith } from '../../kernel/tool';
import { MailroomError, notFound } from '../../kernel/errors';
import type { CoreContext } from '../../kernel/types';
import { indexDbPath } from '../../kernel/db';
import { walkTree } from '../../kernel/fs';
import { vaultRoutes as R } from '../../../../shared/contract/vault';
import { HubEvent } from '../../../../shared/contract/hub';
import { implement } from '../../kernel/route';
import { folderTree, listNotes, noteView, reveal, searchPage } from './view';
import { vaultResources } from './resources';
import { atomicWrite, sha256, sweepTempFiles } from './fsops';
import { parseNote } from './parse';
import { isNotePath, normalizeRel, readVaultFile, resolveVaultPath, toPosix, tryReadVaultFile } from './paths';
import { VaultIndex, type CatchUpReport } from './store';
import { runIndex, type IndexRun } from './indexer';
import { watchVault, type VaultWatcher } from './watch';
import { openVaultGit, type VaultGit } from './git';
import { brainSearchTool } from './tools/brain_search';
import { brainReadNoteTool } from './tools/brain_read_note';


import type { IndexStatus, VaultApi, VaultDomain, VaultOptions } from './api';

export function createVault(ctx: CoreContext, opts: VaultOptions = {}): VaultDomain {
  const log = ctx.log.child('vault');
  const root = ctx.config.vaultDir;
  fs.mkdirSync(root, { recursive: true });
  const index = new VaultIndex(indexDbPath(ctx.config.dataDir));
  let watcher: VaultWatcher | undefined;
  let vgit: VaultGit | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let pushing: Promise<unknown> = Promise.resolve();
  // Read at use time: Settings can change the remote while Mailroom runs.
  const remoteOf = () => opts.remote ?? ctx.config.file.git_remote;
  const db = ctx.stateDb;

  const exclusive = <T>(fn: () => Promise<T> | T): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  const resolve = (rel: string) => resolveVaultPath(root, rel);

  /** Syncs the index with the files at `paths`; returns the ones whose indexed state changed. */
  const sync = (paths: string[], removedDirs: string[] = []): string[] => {
    const changed: string[] = [];
    index.db.transaction(() => {
      for (const d of removedDirs) changed.push(...index.removeUnder(d));
      for (const rel of paths) {
        if (!isNotePath(rel)) continue;
        syncedDuringRun?.add(rel);
        // The vault rule: hidden paths and symlinks leading outside (or to hidden files) are absent.
        const f = tryReadVaultFile(root, rel);
        if (!f) {
          if (index.remove(rel)) changed.push(rel);
          continue;
        }
        const text = f.data.toString('utf8');
        const st = f.stat;
        const hash = sha256(text);
        const row = index.get(rel);
        if (row && row.hash === hash) continue;
        index.upsert(rel, text, st, undefined, hash);
        changed.push(rel);
      }
      // IMMEDIATE: take the write lock first (waiting on busy_timeout) so a background indexer
      // batch never makes this fail with an instant "database is locked" on a read→write upgrade.
    }).immediate();
    return changed;
  };

  const emitChanged = (paths: string[]) => {
    if (paths.length) ctx.events.emit('vault:changed', { paths });
  };

  // ---- the background index (a worker thread), its progress and the paths synced meanwhile ----
  const status: IndexStatus = { state: 'starting', done: 0, total: 0 };
  let run: IndexRun | undefined;
  let current: Promise<unknown> | undefined;
  let syncedDuringRun: Set<string> | undefined;
  let lastBroadcast = 0;
  const announce = (force = false) => {
    const now = Date.now();
    if (!force && now - lastBroadcast < 200) return;
    lastBroadcast = now;
    const p = { state: status.state, done: status.done, total: status.total };
    ctx.hub.broadcast(HubEvent.indexProgress, p);
    ctx.events.emit('vault:indexing', p);
  };
  const startRun = (full: boolean): Promise<Omit<CatchUpReport, 'changed'>> => {
    const t = performance.now();
    Object.assign(status, { state: 'indexing', done: 0, total: 0, error: undefined });
    syncedDuringRun = new Set();
    announce(true);
    // A finished run's worker may still be merging FTS segments: a new run ends it (the merge is optional).
    void run?.stop();
    run = runIndex({
      index,
      dbFile: indexDbPath(ctx.config.dataDir),
      root,
      full,
      log,
      inline: opts.inlineIndex,
      onBatch: (p) => {
        const first = status.done === 0;
        status.done = p.done;
        status.total = p.total;
        if (p.changed.length) {
          index.touch(p.changed);
          emitChanged(p.changed);
        }
        announce(first);
      },
    });
    const r = run.done.then(
      (report) => {
        // Changes the watcher synced while the run read older bytes: sync them again (hash check).
        const again = [...(syncedDuringRun ?? [])];
        syncedDuringRun = undefined;
        // Every change was reported batch by batch, except what a full run's clear removed.
        index.touch(full ? undefined : []);
        if (again.length) emitChanged(sync(again));
        Object.assign(status, { state: 'ready', done: report.scanned, total: report.scanned, ms: Math.round(performance.now() - t) });
        log.info('vault index caught up', { ...report, ms: status.ms });
        announce(true);
        ctx.events.emit('vault:indexed', { ...report, ms: status.ms });
        return report;
      },
      (e: unknown) => {
        syncedDuringRun = undefined;
        Object.assign(status, { state: 'failed', error: String((e as Error)?.message ?? e) });
        log.error('vault indexing failed', { error: status.error });
        announce(true);
        throw e;
      },
    );
    current = r;
    return r;
  };

  const refresh = (paths: string[]) => emitChanged(sync(paths.map((p) => normalizeRel(p))));

  const commit = async (paths: string[], message: string): Promise<string | undefined> => {
    if (!vgit?.enabled) return undefined;
    const oid = await vgit.commitPaths(paths, message);
    const remote = remoteOf();
    if (oid && remote) {
      pushing = pushing.then(() => vgit!.push(remote).catch((e: unknown) => log.warn('git push failed', { error: String(e) })));
    }
    return oid;
  };

  const pendingIns = () => db.prepare('INSERT INTO vault_pending (path, message, created_at) VALUES (?, ?, ?)');

  /** Writes journaled before the crash but never committed: commit them now. */
  const recoverPending = async () => {
    const rows = db.prepare<unknown[], { id: number; path: string; message: string }>('SELECT id, path, message FROM vault_pending ORDER BY id').all();
    const first = rows.at(0);
    const last = rows.at(-1);
    if (!first || !last) return;
    await commit(rows.map((r) => r.path), first.message + ' (recovered)');
    db.prepare('DELETE FROM vault_pending WHERE id <= ?').run(last.id);
    log.info('committed writes interrupted by a crash', { paths: rows.length });
  };

  const api: VaultApi = {
    root,
    index,
    resolve,
    readNote(rel) {
      const clean = normalizeRel(rel);
      let text: string;
      try {
        text = readVaultFile(root, clean).data.toString('utf8');
      } catch (e) {
        if (e instanceof MailroomError && e.status !== 404) throw e;
        throw notFound(`No note at ${clean} in the vault. Use brain_search to find notes.`, { path: clean }, 'note_not_found');
      }
      const p = parseNote(clean, text);
      return { path: clean, title: p.title, frontmatter: p.frontmatter, content: p.body.trim() };
    },
    writeNote(rel, text, o) {
      const clean = normalizeRel(rel);
      if (!/\.(md|markdown|txt)$/i.test(clean)) throw new MailroomError('invalid_argument', `Notes are markdown files; "${clean}" must end in .md.`);
      const abs = resolve(clean);
      return exclusive(async () => {
        const id = Number(pendingIns().run(clean, o.message, new Date(ctx.clock.now()).toISOString()).lastInsertRowid);
        atomicWrite(abs, text);
        refresh([clean]);
        const oid = await commit([clean], o.message);
        db.prepare('DELETE FROM vault_pending WHERE id = ?').run(id);
        return { path: clean, commit: oid };
      });
    },
    search(query, o = {}) {
      if (typeof query !== 'string' || !query.trim()) throw new MailroomError('invalid_argument', 'query is empty; give one or more words, "a phrase" or a prefix*.');
      return index.search(query, { limit: o.limit, folder: o.folder ? normalizeRel(o.folder) : undefined });
    },
    listFolders() {
      const out = new Set<string>();
      walkTree(
        root,
        (e, _abs, rel) => {
          if (!e.isDirectory() || e.name.startsWith('.')) return false;
          out.add(rel);
          return true;
        },
        8,
      );
      for (const f of index.folders()) if (f.folder) out.add(f.folder);
      return [...out].sort();
    },
    exclusive,
    commit,
    refresh,
    async reindex(o = {}) {
      return exclusive(async () => {
        await current?.catch(() => undefined);
        const r = await startRun(!!o.full);
        return { ...r, changed: [], ms: status.ms ?? 0 };
      });
    },
    async push() {
      const remote = remoteOf();
      if (!remote) throw new MailroomError('git_remote_missing', 'No git remote configured; set one in Settings → Git remote (or git_remote, an http(s) URL, in config.json).');
      if (!vgit) throw new MailroomError('unavailable', 'The vault has not started yet.');
      // One push at a time: after-commit pushes and explicit ones share the same chain.
      const run = pushing.then(() => vgit!.push(remote));
      pushing = run.catch(() => undefined);
      return run;
    },
    git: () => vgit,
    async settle() {
      await watcher?.ready;
      await watcher?.flush();
      await queue;
    },
    indexStatus: () => ({ ...status }),
    async whenIndexed() {
      await current?.catch(() => undefined);
      await watcher?.ready;
    },
  };

  const search = brainSearchTool(api);
  index.root = root;
  const read = brainReadNoteTool(api);

  return {
    name: 'vault',
    ...api,
    tools: [search, read],
    resourceTemplates: vaultResources(root, () => index),
    // The file_this prompt's `item` completes to the notes waiting in inbox/.
    completions: {
      'vault.inbox_note': (typed) =>
        completeFrom(
          index.notesIn('inbox', { deep: true, limit: 500 }).map((n) => ({ id: n.path, labels: [n.title] })),
          typed,
        ),
    },
    routes: [
      implement(R.search, (req) => searchPage(index, req.query), { queryName: 'search' }),
      implement(R.note, (req) => noteView(root, index, req.query.path)),
      implement(R.folders, () => ({ folders: api.listFolders() })),
      implement(R.tree, () => folderTree(index, api.listFolders())),
      implement(R.notes, (req) => listNotes(index, req.query), { queryName: 'query' }),
      implement(R.backlinks, (req) => ({ backlinks: index.backlinks(normalizeRel(req.query.path)) })),
      implement(R.reveal, (req) => reveal(root, parseWith(R.reveal.body, req.body, 'body').path)),
      implement(R.reindex, async (req) => api.reindex({ full: parseWith(R.reindex.body, req.body, 'body').full !== false })),
      implement(R.push, () => api.push()),
      implement(R.history, async () => ({ commits: (await vgit?.log(30)) ?? [] })),
    ],
    counts: () => ({ notes: index.count() }),
    async start() {
      sweepTempFiles(root);
      vgit = await openVaultGit(root, { init: opts.gitInit ?? ctx.config.file.git_init ?? ctx.config.demoVault, log });
      await recoverPending();
      // Usable from the first second: the catch-up runs in the background (a worker thread) and
      // reports progress; searches meanwhile serve what is indexed so far, with a note saying so.
      startRun(false).catch(() => undefined);
      if (opts.watch !== false) {
        watcher = watchVault({
          root,
          log,
          stabilityMs: opts.stabilityMs,
          onChange: (paths, dirs) => emitChanged(sync(paths.map(toPosix), dirs)),
        });
      }
    },
    async stop() {
      await run?.stop();
      await watcher?.ready.catch(() => undefined);
      await watcher?.close();
      watcher = undefined;
      await queue.catch(() => undefined);
      await pushing.catch(() => undefined);
      index.close();
    },
  };
}

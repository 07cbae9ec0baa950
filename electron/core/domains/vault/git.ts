import fs from 'node:fs';
import path from 'node:path';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import type { Logger } from '../../kernel/log';
import { MailroomError } from '../../kernel/errors';
import { readVaultFile, type VaultFile } from './paths';

/**
 * isomorphic-git writes the index, refs and objects in place; a crash mid-write leaves a
 * truncated `.git/index` ("index file smaller than expected"). Every write it makes goes through
 * a temp file + rename instead, so a kill leaves the old file or the new one, never half of it.
 */
const gitFs = {
  ...fs,
  promises: {
    ...fs.promises,
    async writeFile(file: fs.PathLike, data: string | Uint8Array, options?: fs.WriteFileOptions) {
      const target = String(file);
      const tmp = `${target}.mailroom-tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
      try {
        await fs.promises.writeFile(tmp, data, options);
        await fs.promises.rename(tmp, target);
      } catch (e) {
        await fs.promises.rm(tmp, { force: true });
        throw e;
      }
    },
  },
};

const AUTHOR = { name: 'Mailroom', email: 'mailroom@localhost' };

export interface VaultGit {
  /** True when the vault is a git repository. */
  readonly enabled: boolean;
  /** Commits exactly `paths` (as they are on disk now; missing = deleted); other changes stay as they were. */
  commitPaths(paths: string[], message: string): Promise<string | undefined>;
  /** Pushes the current branch to `url` over HTTP(S). */
  push(url: string): Promise<{ ok: boolean; ref: string }>;
  head(): Promise<string | undefined>;
  log(depth?: number): Promise<Array<{ oid: string; message: string }>>;
  /** The newest `depth` commits of the current branch with author, time and parents. */
  commits(depth?: number): Promise<GitCommitInfo[]>;
  /** What one commit changed against its first parent (or the empty tree), with both versions' bytes. */
  changes(oid: string): Promise<GitFileChange[]>;
}

export interface GitCommitInfo {
  oid: string;
  message: string;
  author: string;
  email: string;
  /** Milliseconds since the epoch (author time). */
  time: number;
  parents: string[];
}

export interface GitFileChange {
  path: string;
  /** For a move: where the file was. */
  from?: string;
  status: 'added' | 'deleted' | 'modified' | 'moved';
  before?: Uint8Array;
  after?: Uint8Array;
}

function allFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(dir, e.name), r);
      else if (e.isFile()) out.push(r);
    }
  };
  walk(root, '');
  return out;
}

type Change = { oid: string; mode: string } | null;

/**
 * The vault's git history through isomorphic-git. Commits are built from HEAD's tree plus only
 * the files Mailroom changed, so whatever else the person has modified or staged is never swept
 * into a Mailroom commit.
 */
export async function openVaultGit(dir: string, opts: { init: boolean; log: Logger }): Promise<VaultGit> {
  const isRepo = fs.existsSync(path.join(dir, '.git'));
  if (!isRepo && opts.init) {
    await git.init({ fs: gitFs, dir, defaultBranch: 'main' });
    opts.log.info('initialised a git repository in the vault', { dir });
  }
  const enabled = isRepo || opts.init;
  const cache = {};

  const head = async () => {
    try {
      return await git.resolveRef({ fs: gitFs, dir, ref: 'HEAD' });
    } catch {
      return undefined;
    }
  };

  async function updateTree(oid: string | undefined, changes: Map<string, Change>): Promise<string | undefined> {
    const entries = oid ? (await git.readTree({ fs: gitFs, dir, oid, cache })).tree.slice() : [];
    const sub = new Map<string, Map<string, Change>>();
    for (const [p, c] of changes) {
      const i = p.indexOf('/');
      if (i < 0) {
        const at = entries.findIndex((e) => e.path === p);
        if (c === null) {
          if (at >= 0) entries.splice(at, 1);
        } else {
          const old = entries[at];
          const entry = { mode: old?.type === 'blob' ? old.mode : c.mode, path: p, oid: c.oid, type: 'blob' as const };
          if (at >= 0) entries[at] = entry;
          else entries.push(entry);
        }
      } else {
        const head = p.slice(0, i);
        const m = sub.get(head) ?? new Map<string, Change>();
        m.set(p.slice(i + 1), c);
        sub.set(head, m);
      }
    }
    for (const [name, m] of sub) {
      const at = entries.findIndex((e) => e.path === name);
      const found = entries[at];
      const existing = found?.type === 'tree' ? found.oid : undefined;
      const next = await updateTree(existing, m);
      if (next === undefined) {
        if (at >= 0) entries.splice(at, 1);
      } else {
        const entry = { mode: '040000', path: name, oid: next, type: 'tree' as const };
        if (at >= 0) entries[at] = entry;
        else entries.push(entry);
      }
    }
    if (!entries.length) return undefined;
    return git.writeTree({ fs: gitFs, dir, tree: entries });
  }

  const api: VaultGit = {
    enabled,
    commits: (depth) => commits(depth),
    changes: (oid) => changes(oid),
    head,
    async commitPaths(paths, message) {
      if (!enabled || !paths.length) return undefined;
      const parent = await head();
      const parentTree = parent ? (await git.readCommit({ fs: gitFs, dir, oid: parent, cache })).commit.tree : undefined;
      const changes = new Map<string, Change>();
      for (const rel of new Set(paths)) {
        // Under the vault rule: a path that is (now) hidden or a symlink leading outside the vault
        // is never read into history (and so never pushed); an absent one is a deletion.
        let f: VaultFile | undefined;
        try {
          f = readVaultFile(dir, rel);
        } catch (e) {
          if (e instanceof MailroomError && e.status !== 404) continue;
          f = undefined;
        }
        if (f) {
          const oid = await git.writeBlob({ fs: gitFs, dir, blob: f.data });
          changes.set(rel, { oid, mode: f.stat.mode & 0o111 ? '100755' : '100644' });
        } else changes.set(rel, null);
      }
      const tree = (await updateTree(parentTree, changes)) ?? (await git.writeTree({ fs: gitFs, dir, tree: [] }));
      // Nothing new to commit (e.g. a crash hit after the commit): still bring the index in step.
      const oid = tree === parentTree ? undefined : await git.commit({ fs: gitFs, dir, message, author: AUTHOR, committer: AUTHOR, tree, parent: parent ? [parent] : [], cache });
      // Keep the index in step for these paths only, so `git status` shows them clean.
      for (const [rel, c] of changes) {
        try {
          if (c) await git.add({ fs: gitFs, dir, filepath: rel, cache });
          else await git.remove({ fs: gitFs, dir, filepath: rel, cache });
        } catch {
          // The index is a convenience; the commit is what counts.
        }
      }
      return oid;
    },
    async push(url) {
      if (!enabled) throw new MailroomError('git_not_enabled', 'The vault is not a git repository; set git_init: true in config.json or run git init in the vault.');
      const branch = (await git.currentBranch({ fs: gitFs, dir })) ?? 'main';
      const u = new URL(url);
      const auth = u.username ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : undefined;
      u.username = '';
      u.password = '';
      try {
        const r = await git.push({ fs: gitFs, http, dir, url: u.toString(), ref: branch, remoteRef: branch, onAuth: auth ? () => auth : undefined });
        return { ok: r.ok, ref: branch };
      } catch (e) {
        throw new MailroomError('git_push_failed', `Pushing ${branch} to ${u.origin}${u.pathname} failed: ${(e as Error).message}. Check git_remote in config.json and that the server accepts pushes.`);
      }
    },
    async log(depth = 20) {
      if (!enabled || !(await head())) return [];
      const entries = await git.log({ fs: gitFs, dir, depth, cache });
      return entries.map((e) => ({ oid: e.oid, message: e.commit.message.trim() }));
    },
  };

  /** Blob oids by path under two trees, descending only into subtrees that differ. */
  async function treeDelta(a: string | undefined, b: string | undefined, prefix: string, out: Map<string, { a?: string; b?: string }>): Promise<void> {
    if (a === b) return;
    const read = async (oid: string | undefined) => (oid ? (await git.readTree({ fs: gitFs, dir, oid, cache })).tree : []);
    const [ta, tb] = await Promise.all([read(a), read(b)]);
    const names = new Set([...ta.map((e) => e.path), ...tb.map((e) => e.path)]);
    for (const name of names) {
      const ea = ta.find((e) => e.path === name);
      const eb = tb.find((e) => e.path === name);
      const p = prefix ? `${prefix}/${name}` : name;
      const sub = (e: typeof ea) => (e?.type === 'tree' ? e.oid : undefined);
      const blob = (e: typeof ea) => (e?.type === 'blob' ? e.oid : undefined);
      if (sub(ea) || sub(eb)) await treeDelta(sub(ea), sub(eb), p, out);
      if ((blob(ea) || blob(eb)) && blob(ea) !== blob(eb)) out.set(p, { a: blob(ea), b: blob(eb) });
    }
  }

  async function commits(depth = 50): Promise<GitCommitInfo[]> {
    if (!enabled || !(await head())) return [];
    const entries = await git.log({ fs: gitFs, dir, depth, cache });
    return entries.map((e) => ({
      oid: e.oid,
      message: e.commit.message.trim(),
      author: e.commit.author.name,
      email: e.commit.author.email,
      time: e.commit.author.timestamp * 1000,
      parents: e.commit.parent,
    }));
  }

  async function changes(oid: string): Promise<GitFileChange[]> {
    if (!enabled) return [];
    let commit;
    try {
      commit = (await git.readCommit({ fs: gitFs, dir, oid, cache })).commit;
    } catch {
      throw new MailroomError('commit_not_found', `No commit ${oid} in the vault's git history.`, { commit: oid }, 404);
    }
    const parentTree = commit.parent[0] ? (await git.readCommit({ fs: gitFs, dir, oid: commit.parent[0], cache })).commit.tree : undefined;
    const delta = new Map<string, { a?: string; b?: string }>();
    await treeDelta(parentTree, commit.tree, '', delta);
    const blob = async (o?: string) => (o ? (await git.readBlob({ fs: gitFs, dir, oid: o, cache })).blob : undefined);
    const out: GitFileChange[] = [];
    const added = [...delta].filter(([, d]) => !d.a && d.b);
    const deleted = [...delta].filter(([, d]) => d.a && !d.b);
    const movedFrom = new Map<string, string>();
    // Same bytes gone from one path and new at another: a move.
    for (const [p, d] of added) {
      const src = deleted.find(([q, e]) => e.a === d.b && ![...movedFrom.values()].includes(q));
      if (src) movedFrom.set(p, src[0]);
    }
    const used = new Set(movedFrom.values());
    for (const [p, d] of [...delta].sort(([x], [y]) => x.localeCompare(y))) {
      if (used.has(p)) continue;
      const from = movedFrom.get(p);
      const status = from ? 'moved' : !d.a ? 'added' : !d.b ? 'deleted' : 'modified';
      out.push({ path: p, ...(from ? { from } : {}), status, before: from ? await blob(deleted.find(([q]) => q === from)![1].a) : await blob(d.a), after: await blob(d.b) });
    }
    return out;
  }

  if (!isRepo && opts.init) {
    await api.commitPaths(allFiles(dir), 'Mailroom: initial commit of the vault');
  }
  return api;
}

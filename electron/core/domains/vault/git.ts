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
          const entry = { mode: at >= 0 && entries[at].type === 'blob' ? entries[at].mode : c.mode, path: p, oid: c.oid, type: 'blob' as const };
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
      const existing = at >= 0 && entries[at].type === 'tree' ? entries[at].oid : undefined;
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

  if (!isRepo && opts.init) {
    await api.commitPaths(allFiles(dir), 'Mailroom: initial commit of the vault');
  }
  return api;
}

import type { Domain, JsonObject } from '../../kernel/types';
import type { VaultIndex, CatchUpReport, SearchHit } from './store';
import type { VaultGit } from './git';

export interface VaultOptions {
  /** Initialise a git repository if the vault has none (default: config git_init, else only for the demo vault). */
  gitInit?: boolean;
  /** Watch the folder with chokidar (default true). */
  watch?: boolean;
  /** Push after each commit when a remote is configured (default: config git_remote). */
  remote?: string;
  /** awaitWriteFinish stability threshold (ms). */
  stabilityMs?: number;
  /** Index on this thread (in batches that yield) instead of a worker thread. */
  inlineIndex?: boolean;
}

/** Where the background index stands: `indexing` until every note is searchable. */
export interface IndexStatus {
  state: 'starting' | 'indexing' | 'ready' | 'failed';
  done: number;
  total: number;
  /** Duration of the last completed run. */
  ms?: number;
  error?: string;
}

export interface Note {
  path: string;
  title: string;
  frontmatter: JsonObject;
  /** The body, without the frontmatter block. */
  content: string;
}

export interface VaultApi {
  readonly root: string;
  readonly index: VaultIndex;
  /** Absolute path of a vault-relative path; throws path_outside_vault when it would leave the vault. */
  resolve(rel: string): string;
  readNote(rel: string): Note;
  /** Atomic write, journaled before it happens and committed after. */
  writeNote(rel: string, text: string, opts: { message: string }): Promise<{ path: string; commit?: string }>;
  search(query: string, opts?: { limit?: number; folder?: string }): SearchHit[];
  /** Every folder in the vault (posix, no trailing slash), hidden ones excluded. */
  listFolders(): string[];
  /** Runs `fn` while holding the vault's write lock (file changes + commit happen one batch at a time). */
  exclusive<T>(fn: () => Promise<T> | T): Promise<T>;
  /** Commits exactly these paths (call inside `exclusive`). */
  commit(paths: string[], message: string): Promise<string | undefined>;
  /** Re-reads these paths into the index now (without waiting for the watcher) and emits vault:changed. */
  refresh(paths: string[]): void;
  reindex(opts?: { full?: boolean }): Promise<CatchUpReport & { ms: number }>;
  push(): Promise<{ ok: boolean; ref: string }>;
  git(): VaultGit | undefined;
  /** Resolves once the watcher has handed over every change seen so far. */
  settle(): Promise<void>;
  /** The background index: state and progress. */
  indexStatus(): IndexStatus;
  /** Resolves when the start-up (or current) index run has finished and the watcher is ready. */
  whenIndexed(): Promise<void>;
}

export type VaultDomain = Domain & VaultApi;

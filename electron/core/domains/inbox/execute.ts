/**
 * inbox_execute and inbox_undo. Every batch is planned into file steps (move, write) that are
 * journaled in the state DB before any file is touched; steps are idempotent, so an interrupted
 * batch is rolled forward at start-up and each note exists exactly once. One git commit per batch.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Logger } from '../../kernel/log';
import type { Clock } from '../../kernel/types';
import { MailroomError, notFound } from '../../kernel/errors';
import { atomicWrite, freePath, hashFile, isIgnoredRel, moveFile, normalizeRel, parseNote, sha256, toPosix, type VaultApi } from '../vault';
import type { ActionInput, ActionResult, ExecuteResult, UndoResult } from './contract';

interface Step {
  seq: number;
  op: 'move' | 'write';
  src: string | null;
  dst: string;
  hash: string;
  before_hash: string | null;
  data: Buffer | null;
  before_data: Buffer | null;
  done: number;
}

export interface JournalDeps {
  db: Database.Database;
  vault: Pick<VaultApi, 'root' | 'resolve' | 'exclusive' | 'commit' | 'refresh'>;
  trashDir: string;
  clock: Clock;
  log: Logger;
  /** Test hook: called after each step is applied (the crash test kills the process around here). */
  afterStep?: (seq: number) => void;
}

const exists = (p: string) => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};

function applyStep(s: Step): void {
  if (s.op === 'move') {
    const src = s.src!;
    const srcThere = exists(src);
    const dstThere = exists(s.dst);
    if (srcThere && !dstThere) return moveFile(src, s.dst);
    if (srcThere && dstThere) {
      // A cross-device copy finished but the source was not yet removed.
      if (hashFile(s.dst) === s.hash) return fs.rmSync(src);
      throw new MailroomError('conflict', `Both ${src} and ${s.dst} exist with different content; leaving both in place.`);
    }
    if (!srcThere && dstThere) return;
    throw new MailroomError('conflict', `Neither ${src} nor ${s.dst} exists any more.`);
  }
  const cur = hashFile(s.dst);
  if (cur === s.hash) return;
  if (cur === s.before_hash || (cur === undefined && s.before_hash === null)) return atomicWrite(s.dst, s.data!);
  throw new MailroomError('conflict', `${s.dst} changed since the batch was planned; not overwriting it.`);
}

export class InboxJournal {
  constructor(private readonly d: JournalDeps) {}

  private iso() {
    return new Date(this.d.clock.now()).toISOString();
  }

  private rel(abs: string): string | undefined {
    const r = path.relative(this.d.vault.root, abs);
    return r.startsWith('..') || path.isAbsolute(r) ? undefined : toPosix(r);
  }

  private touched(steps: Array<Pick<Step, 'src' | 'dst'>>): string[] {
    const out = new Set<string>();
    for (const s of steps) for (const p of [s.src, s.dst]) if (p) {
      const r = this.rel(p);
      if (r) out.add(r);
    }
    return [...out];
  }

  private newId(): string {
    return `b_${this.d.clock.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  }

  /** Journal the steps, apply them, commit once; all under the vault's write lock. */
  private async run(id: string, kind: 'execute' | 'undo', steps: Step[], message: string, summary: unknown, undoOf?: string): Promise<string | null> {
    const { db } = this.d;
    const insStep = db.prepare('INSERT INTO inbox_steps (batch_id, seq, op, src, dst, hash, before_hash, data, before_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      db.prepare("INSERT INTO inbox_batches (id, kind, status, undo_of, created_at, summary) VALUES (?, ?, 'running', ?, ?, ?)").run(id, kind, undoOf ?? null, this.iso(), JSON.stringify({ message, summary }));
      for (const s of steps) insStep.run(id, s.seq, s.op, s.src, s.dst, s.hash, s.before_hash, s.data, s.before_data);
    })();
    return this.finish(id, steps, message);
  }

  private async finish(id: string, steps: Step[], message: string): Promise<string | null> {
    const { db } = this.d;
    const markDone = db.prepare('UPDATE inbox_steps SET done = 1 WHERE batch_id = ? AND seq = ?');
    for (const s of steps) {
      if (s.done) continue;
      applyStep(s);
      markDone.run(id, s.seq);
      this.d.afterStep?.(s.seq);
    }
    const paths = this.touched(steps);
    const commit = (await this.d.vault.commit(paths, message)) ?? null;
    db.transaction(() => {
      db.prepare("UPDATE inbox_batches SET status = 'done', finished_at = ?, git_commit = ? WHERE id = ?").run(this.iso(), commit, id);
      const b = db.prepare('SELECT kind, undo_of FROM inbox_batches WHERE id = ?').get(id) as { kind: string; undo_of: string | null };
      if (b.kind === 'undo' && b.undo_of) db.prepare("UPDATE inbox_batches SET status = 'undone' WHERE id = ?").run(b.undo_of);
    })();
    this.d.vault.refresh(paths);
    return commit;
  }

  async execute(actions: ActionInput[], opts: { dryRun?: boolean } = {}): Promise<ExecuteResult & { touched: string[] }> {
    // Paths that leave the vault reject the whole batch before anything is planned.
    for (const a of actions) {
      this.d.vault.resolve(a.path);
      if (a.destination !== undefined && a.action !== 'keep' && a.action !== 'delete') {
        this.d.vault.resolve(a.destination.replace(/\/+$/, '') || '.');
      }
    }
    return this.d.vault.exclusive(async () => {
      const id = this.newId();
      const results: ActionResult[] = [];
      const steps: Step[] = [];
      const taken = new Set<string>();
      const seen = new Set<string>();
      const pendingText = new Map<string, Buffer>();
      const today = new Date(this.d.clock.now()).toISOString().slice(0, 10);
      const fail = (a: ActionInput, code: string, message: string) => results.push({ path: a.path, action: a.action, status: 'error', error: { code, message } });
      const step = (s: Omit<Step, 'seq' | 'done'>) => steps.push({ ...s, seq: steps.length, done: 0 });

      for (const a of actions) {
        const rel = normalizeRel(a.path);
        const src = this.d.vault.resolve(rel);
        if (seen.has(rel)) {
          fail(a, 'invalid_argument', `${rel} appears twice in this batch; give one action per item.`);
          continue;
        }
        seen.add(rel);
        if (!exists(src) || isIgnoredRel(rel)) {
          fail(a, 'note_not_found', `No note at ${rel}; run inbox_analyze again to see the current items.`);
          continue;
        }
        if (a.action === 'keep') {
          results.push({ path: rel, action: 'keep', status: 'kept' });
          continue;
        }
        const bytes = fs.readFileSync(src);
        const hash = sha256(bytes);
        if (a.action === 'delete') {
          const trash = path.join(this.d.trashDir, id, rel);
          step({ op: 'move', src, dst: trash, hash, before_hash: null, data: null, before_data: null });
          results.push({ path: rel, action: 'delete', status: opts.dryRun ? 'planned' : 'done' });
          continue;
        }
        if (!a.destination?.trim()) {
          fail(a, 'invalid_argument', `${a.action} needs a destination (${a.action === 'move' ? 'a folder or a .md path' : 'the note to append to'}).`);
          continue;
        }
        if (a.action === 'move') {
          const destRel0 = normalizeRel(a.destination);
          const destRel = /\/$/.test(a.destination) || !path.posix.extname(destRel0) ? `${destRel0}/${path.posix.basename(rel)}` : destRel0;
          if (isIgnoredRel(destRel)) {
            fail(a, 'invalid_argument', `${destRel} is inside a hidden folder; choose a visible folder.`);
            continue;
          }
          if (destRel === rel) {
            results.push({ path: rel, action: 'move', status: 'kept', destination: rel });
            continue;
          }
          const dst = freePath(this.d.vault.resolve(destRel), (p) => taken.has(p) || fs.existsSync(p));
          taken.add(dst);
          step({ op: 'move', src, dst, hash, before_hash: null, data: null, before_data: null });
          results.push({ path: rel, action: 'move', status: opts.dryRun ? 'planned' : 'done', destination: this.rel(dst) });
          continue;
        }
        // merge: append the item's body under a dated heading, then the item goes to the trash.
        const targetRel = normalizeRel(a.destination);
        const target = this.d.vault.resolve(targetRel);
        if (targetRel === rel || !exists(target)) {
          fail(a, 'note_not_found', `Cannot merge into ${targetRel}: ${targetRel === rel ? 'it is the item itself' : 'no such note'}.`);
          continue;
        }
        const before = pendingText.get(target) ?? fs.readFileSync(target);
        const note = parseNote(rel, bytes.toString('utf8'));
        const head = before.toString('utf8').replace(/\s*$/, '\n');
        // The item's own H1 becomes the dated heading, so it is not repeated below it.
        const text = note.body.trim().replace(/^#[ \t]+(.+)\n+/, (m, h: string) => (h.trim() === note.title ? '' : m));
        const merged = Buffer.from(`${head}\n## ${today} — ${note.title}\n\n${text.trim()}\n`, 'utf8');
        step({ op: 'write', src: null, dst: target, hash: sha256(merged), before_hash: sha256(before), data: merged, before_data: before });
        pendingText.set(target, merged);
        step({ op: 'move', src, dst: path.join(this.d.trashDir, id, rel), hash, before_hash: null, data: null, before_data: null });
        results.push({ path: rel, action: 'merge', status: opts.dryRun ? 'planned' : 'done', destination: targetRel });
      }

      if (opts.dryRun || !steps.length) return { results, commit: null, undo_id: null, dry_run: !!opts.dryRun, touched: [] };
      const counts = results.reduce<Record<string, number>>((m, r) => (r.status === 'done' ? { ...m, [r.action]: (m[r.action] ?? 0) + 1 } : m), {});
      const n = Object.values(counts).reduce((a, b) => a + b, 0);
      const message = `Mailroom: file ${n} inbox item${n === 1 ? '' : 's'} (${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')})\n\nundo id: ${id}`;
      const commit = await this.run(id, 'execute', steps, message, results);
      return { results, commit, undo_id: id, dry_run: false, touched: this.touched(steps) };
    });
  }

  async undo(undoId: string): Promise<UndoResult & { touched: string[] }> {
    return this.d.vault.exclusive(async () => {
      const { db } = this.d;
      const b = db.prepare<unknown[], { id: string; kind: string; status: string }>('SELECT id, kind, status FROM inbox_batches WHERE id = ?').get(undoId);
      if (!b || b.kind !== 'execute') throw notFound(`No executed batch with undo id ${undoId}; undo ids come from inbox_execute.`, { undo_id: undoId }, 'undo_not_found');
      if (b.status === 'undone') throw new MailroomError('conflict', `Batch ${undoId} was already undone.`, { undo_id: undoId });
      if (b.status !== 'done') throw new MailroomError('conflict', `Batch ${undoId} has not finished; restart Mailroom to let it recover, then undo.`);
      const fwd = db.prepare<unknown[], Step>('SELECT seq, op, src, dst, hash, before_hash, data, before_data, done FROM inbox_steps WHERE batch_id = ? ORDER BY seq DESC').all(undoId);
      const changed: string[] = [];
      const rev: Step[] = [];
      for (const s of fwd) {
        if (s.op === 'move') {
          if (hashFile(s.dst) !== s.hash) changed.push(this.rel(s.dst) ?? s.dst);
          else if (exists(s.src!)) changed.push(this.rel(s.src!) ?? s.src!);
          rev.push({ seq: rev.length, op: 'move', src: s.dst, dst: s.src!, hash: s.hash, before_hash: null, data: null, before_data: null, done: 0 });
        } else {
          if (hashFile(s.dst) !== s.hash) changed.push(this.rel(s.dst) ?? s.dst);
          rev.push({ seq: rev.length, op: 'write', src: null, dst: s.dst, hash: s.before_hash!, before_hash: s.hash, data: s.before_data, before_data: s.data, done: 0 });
        }
      }
      if (changed.length) {
        throw new MailroomError('conflict', `Cannot undo byte for byte: ${[...new Set(changed)].join(', ')} changed since the batch ran. Restore them by hand from git history.`, {
          paths: [...new Set(changed)],
        });
      }
      const id = this.newId();
      const restored = [...new Set(fwd.filter((s) => s.src || s.op === 'write').map((s) => this.rel(s.op === 'move' ? s.src! : s.dst)).filter((x): x is string => !!x))];
      const commit = await this.run(id, 'undo', rev, `Mailroom: undo ${undoId}`, restored, undoId);
      return { undo_id: undoId, restored, commit, touched: this.touched(rev) };
    });
  }

  /** Start-up: roll every interrupted batch forward (steps are idempotent) and commit it. */
  async recover(): Promise<string[]> {
    const { db } = this.d;
    const running = db.prepare<unknown[], { id: string; summary: string }>("SELECT id, summary FROM inbox_batches WHERE status = 'running' ORDER BY created_at").all();
    const out: string[] = [];
    for (const b of running) {
      await this.d.vault.exclusive(async () => {
        const steps = db.prepare<unknown[], Step>('SELECT seq, op, src, dst, hash, before_hash, data, before_data, done FROM inbox_steps WHERE batch_id = ? ORDER BY seq').all(b.id);
        const message = ((JSON.parse(b.summary) as { message?: string }).message ?? `Mailroom: batch ${b.id}`) + '\n\n(completed after an interruption)';
        try {
          await this.finish(b.id, steps, message);
          out.push(b.id);
          this.d.log.warn('completed an inbox batch interrupted by a crash', { batch: b.id, steps: steps.length });
        } catch (e) {
          this.d.log.error('could not complete an interrupted inbox batch; files left as they are', { batch: b.id, error: String(e) });
        }
      });
    }
    return out;
  }

  lastBatches(limit = 10): Array<{ id: string; kind: string; status: string; created_at: string; git_commit: string | null }> {
    return this.d.db.prepare('SELECT id, kind, status, created_at, git_commit FROM inbox_batches ORDER BY created_at DESC LIMIT ?').all(limit) as Array<{
      id: string;
      kind: string;
      status: string;
      created_at: string;
      git_commit: string | null;
    }>;
  }
}

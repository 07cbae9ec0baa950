import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import { MailroomError } from '../../kernel/errors';
import type { MessagePriority, SessionDto, SessionMessageDto, SessionStatus } from '../../../../shared/contract/sessions';

export const TASK_NOT_FOUND = 'task_not_found';

export const taskNotFound = (id: string) =>
  new MailroomError(TASK_NOT_FOUND, `No session with id '${id}'. List them with \`mailroom session list\` or the inbox_status tool.`, { task_id: id }, 404);

interface SessionRow {
  id: string;
  name: string;
  working_dir: string;
  status: SessionStatus;
  created_at: string;
  updated_at: string;
  install: string | null;
}

/** A fresh session id: short enough to type in a CLI, random enough for one machine. */
export function newTaskId(): string {
  return crypto.randomBytes(5).toString('hex');
}

/**
 * The mailbox tables. Every state change is one SQLite transaction, so it holds across processes
 * sharing the state DB (owner, an in-process CLI core, the hook's short write).
 */
export class SessionStore {
  private prepared?: ReturnType<SessionStore['prepare']>;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => string,
  ) {}

  /** True once migration 003 has created the mailbox tables. */
  ready(): boolean {
    return !!this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'task_messages'").get();
  }

  /** Statements are prepared on first use, so a DB without the tables fails with a clear error, not at start-up. */
  private get q() {
    if (!this.prepared) {
      if (!this.ready()) {
        throw new MailroomError('unavailable', 'The session mailbox tables are missing: migration 003_mailbox is not registered in db/migrations/index.ts.');
      }
      this.prepared = this.prepare();
    }
    return this.prepared;
  }

  private prepare() {
    const db = this.db;
    return {
      insertTask: db.prepare('INSERT INTO tasks (id, name, working_dir, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)'),
      task: db.prepare('SELECT * FROM tasks WHERE id = ?'),
      taskByDir: db.prepare('SELECT * FROM tasks WHERE working_dir = ?'),
      tasks: db.prepare('SELECT * FROM tasks ORDER BY created_at, id'),
      setStatus: db.prepare('UPDATE tasks SET status = ?, updated_at = ? WHERE id = ? AND status <> ?'),
      setInstall: db.prepare('UPDATE tasks SET install = ? WHERE id = ?'),
      deleteTask: db.prepare('DELETE FROM tasks WHERE id = ?'),
      link: db.prepare('INSERT OR IGNORE INTO task_links (task_id, peer_id, created_at) VALUES (?, ?, ?)'),
      peers: db.prepare('SELECT peer_id FROM task_links WHERE task_id = ? ORDER BY created_at, peer_id'),
      allPeers: db.prepare('SELECT task_id, peer_id FROM task_links ORDER BY created_at, peer_id'),
      insertMessage: db.prepare('INSERT INTO task_messages (task_id, sender, body, priority, created_at) VALUES (?, ?, ?, ?, ?)'),
      pending: db.prepare('SELECT COUNT(*) AS n FROM task_messages WHERE task_id = ? AND delivered_at IS NULL'),
      pendingAll: db.prepare('SELECT task_id, COUNT(*) AS n FROM task_messages WHERE delivered_at IS NULL GROUP BY task_id'),
      totalPending: db.prepare('SELECT COUNT(*) AS n FROM task_messages WHERE delivered_at IS NULL'),
      deliver: db.prepare(
        'UPDATE task_messages SET delivered_at = ? WHERE task_id = ? AND delivered_at IS NULL RETURNING id, task_id, sender, body, priority, created_at, delivered_at',
      ),
      timeline: db.prepare('SELECT * FROM (SELECT * FROM task_messages WHERE task_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id'),
      message: db.prepare('SELECT * FROM task_messages WHERE id = ?'),
    };
  }

  private toDto(row: SessionRow, pending?: number, peers?: string[]): SessionDto {
    return {
        id: row.id,
        name: row.name,
        working_dir: row.working_dir,
        status: row.status,
        created_at: row.created_at,
        updated_at: row.updated_at,
        pending: pending ?? this.pending(row.id),
        peers: peers ?? this.peers(row.id),
    };
  }

  createTask(t: { id: string; name: string; workingDir: string; peer?: string }): SessionDto {
    const at = this.now();
    this.db.transaction(() => {
      this.q.insertTask.run(t.id, t.name, t.workingDir, 'queued', at, at);
      if (t.peer) this.link(t.id, t.peer);
    })();
    return this.get(t.id);
  }

  find(id: string): SessionDto | undefined {
    const row = this.q.task.get(id) as SessionRow | undefined;
    return row && this.toDto(row);
  }

  get(id: string): SessionDto {
    const t = this.find(id);
    if (!t) throw taskNotFound(id);
    return t;
  }

  findByDir(dir: string): SessionDto | undefined {
    const row = this.q.taskByDir.get(dir) as SessionRow | undefined;
    return row && this.toDto(row);
  }

  list(): SessionDto[] {
    const pending = new Map((this.q.pendingAll.all() as Array<{ task_id: string; n: number }>).map((r) => [r.task_id, r.n]));
    const peers = new Map<string, string[]>();
    for (const l of this.q.allPeers.all() as Array<{ task_id: string; peer_id: string }>) {
      peers.set(l.task_id, [...(peers.get(l.task_id) ?? []), l.peer_id]);
    }
    return (this.q.tasks.all() as SessionRow[]).map((r) => this.toDto(r, pending.get(r.id) ?? 0, peers.get(r.id) ?? []));
  }

  /** Returns the updated task when the status changed, undefined when it already had it. */
  setStatus(id: string, status: SessionStatus): SessionDto | undefined {
    const r = this.q.setStatus.run(status, this.now(), id, status);
    if (r.changes === 0) {
      this.get(id); // throws task_not_found for unknown ids
      return undefined;
    }
    return this.get(id);
  }

  installRecord(id: string): string | null {
    const row = this.q.task.get(id) as SessionRow | undefined;
    if (!row) throw taskNotFound(id);
    return row.install;
  }

  setInstallRecord(id: string, record: string | null): void {
    this.q.setInstall.run(record, id);
  }

  delete(id: string): void {
    this.q.deleteTask.run(id);
  }

  /** Links two sessions as peers (both directions). */
  link(a: string, b: string): void {
    if (a === b) throw new MailroomError('invalid_argument', 'A session cannot be its own peer.');
    if (!this.q.task.get(b)) throw taskNotFound(b);
    const at = this.now();
    this.q.link.run(a, b, at);
    this.q.link.run(b, a, at);
  }

  peers(id: string): string[] {
    return (this.q.peers.all(id) as Array<{ peer_id: string }>).map((r) => r.peer_id);
  }

  enqueue(sessionId: string, sender: string, body: string, priority: MessagePriority): { id: number; pending: number } {
    return this.db.transaction(() => {
      if (!this.q.task.get(sessionId)) throw taskNotFound(sessionId);
      const r = this.q.insertMessage.run(sessionId, sender, body, priority, this.now());
      return { id: Number(r.lastInsertRowid), pending: this.pending(sessionId) };
    }).immediate();
  }

  /**
   * Marks every undelivered message of a session delivered and returns them, high priority first.
   * One IMMEDIATE transaction (the write lock is taken before reading), so two callers — in this
   * process or another — can never both receive the same message.
   */
  deliver(sessionId: string): SessionMessageDto[] {
    const rows = this.db.transaction(() => {
      if (!this.q.task.get(sessionId)) throw taskNotFound(sessionId);
      return this.q.deliver.all(this.now(), sessionId) as SessionMessageDto[];
    }).immediate();
    return rows.sort((a, b) => (a.priority === b.priority ? a.id - b.id : a.priority === 'high' ? -1 : 1));
  }

  pending(sessionId: string): number {
    return (this.q.pending.get(sessionId) as { n: number }).n;
  }

  totalPending(): number {
    return (this.q.totalPending.get() as { n: number }).n;
  }

  /** The newest `limit` messages of a session, oldest first. */
  timeline(sessionId: string, limit = 500): SessionMessageDto[] {
    if (!this.q.task.get(sessionId)) throw taskNotFound(sessionId);
    return this.q.timeline.all(sessionId, limit) as SessionMessageDto[];
  }

  message(id: number): SessionMessageDto | undefined {
    return this.q.message.get(id) as SessionMessageDto | undefined;
  }
}

import fs from 'node:fs';
import path from 'node:path';
import { MailroomError, invalidArgument } from '../../kernel/errors';
import type { CoreContext } from '../../kernel/types';
import { MAX_MESSAGE_BYTES, type MessagePriority, type SessionDto, type SessionMessageDto } from '../../../../shared/contract/sessions';
import { HubEvent } from '../../../../shared/contract/hub';
import { SessionStore, newTaskId } from './store';
import { installMailbox, uninstallMailbox, type InstallRecord, type UninstallResult } from './installer';

export const BADGE_KEY = 'sessions';

/** Who sent a message: the person, or another session. */
export type Sender = { kind: 'user' } | { kind: 'task'; id: string };

export const senderLabel = (s: Sender) => (s.kind === 'user' ? 'user' : `task:${s.id}`);

export function validateBody(body: unknown): string {
  if (typeof body !== 'string' || body.trim() === '') throw invalidArgument('The message body is empty; write something to send.');
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > MAX_MESSAGE_BYTES) {
    throw invalidArgument(`The message body is ${bytes} bytes; the limit is ${MAX_MESSAGE_BYTES} (64 KiB). Split it, or send a path to a file instead.`, {
      bytes,
      limit: MAX_MESSAGE_BYTES,
    });
  }
  return body;
}

export function validatePriority(p: unknown): MessagePriority {
  if (p === undefined || p === null || p === 'normal') return 'normal';
  if (p === 'high') return 'high';
  throw invalidArgument(`priority must be "normal" or "high", got ${JSON.stringify(p)}.`);
}

/**
 * The mailbox's behaviour, shared by MCP tools, REST routes and hub methods: every change is
 * stored first, then announced on the hub (TaskMessageQueued / Delivered / TaskUpdated) and
 * reflected in the `sessions` badge, whatever surface it came from.
 */
export class SessionService {
  readonly store: SessionStore;

  constructor(private readonly ctx: CoreContext) {
    this.store = new SessionStore(ctx.stateDb, () => new Date(ctx.clock.now()).toISOString());
  }

  refreshBadge(): void {
    this.ctx.platform.setBadge(BADGE_KEY, this.store.totalPending());
  }

  list(): SessionDto[] {
    return this.store.list();
  }

  get(id: string): SessionDto {
    return this.store.get(id);
  }

  /** Resolves the session a call is about: the explicit id, else the caller's own. */
  resolveTaskId(explicit: string | undefined, callerTaskId: string | undefined): string {
    const id = explicit ?? callerTaskId;
    if (!id) {
      throw invalidArgument(
        'No task_id given, and this client carries no session id (MAILROOM_TASK_ID). Pass task_id, or run the client from a folder set up with `mailroom session add`.',
      );
    }
    return id;
  }

  createSession(input: { name: string; workingDir: string; peer?: string }): SessionDto {
    const name = input.name.trim();
    if (!name) throw invalidArgument('A session needs a name.');
    if (name.length > 200) throw invalidArgument('A session name has at most 200 characters.');
    const dir = path.resolve(input.workingDir);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(dir);
    } catch {
      throw invalidArgument(`The working folder ${dir} does not exist; create it first or choose another.`, { working_dir: dir });
    }
    if (!stat.isDirectory()) throw invalidArgument(`${dir} is not a folder.`, { working_dir: dir });
    const real = fs.realpathSync(dir);
    const clash = this.store.findByDir(real);
    if (clash) {
      throw new MailroomError('conflict', `${real} already hosts the session "${clash.name}" (${clash.id}); remove it first with \`mailroom session remove ${clash.id}\`.`, {
        task_id: clash.id,
      });
    }
    if (input.peer) this.store.get(input.peer);
    const id = newTaskId();
    const task = this.store.createTask({ id, name, workingDir: real, peer: input.peer });
    let record: InstallRecord;
    try {
      record = installMailbox({ sessionId: id, name, dir: real, config: this.ctx.config });
    } catch (e) {
      this.store.delete(id);
      throw e;
    }
    this.store.setInstallRecord(id, JSON.stringify(record));
    this.ctx.hub.broadcast(HubEvent.taskUpdated, task);
    if (input.peer) this.ctx.hub.broadcast(HubEvent.taskUpdated, this.store.get(input.peer));
    this.ctx.log.info('session created', { task: id, dir: real });
    return task;
  }

  /** Takes the mailbox out of the working folder and forgets the session and its messages. */
  removeSession(id: string): { task: SessionDto; uninstall: UninstallResult } {
    const task = this.store.get(id);
    const raw = this.store.installRecord(id);
    const uninstall: UninstallResult = raw ? uninstallMailbox(JSON.parse(raw) as InstallRecord) : { restored: [], merged: [], skipped: [] };
    this.store.delete(id);
    this.ctx.hub.broadcast(HubEvent.taskRemoved, id);
    for (const p of task.peers) {
      const peer = this.store.find(p);
      if (peer) this.ctx.hub.broadcast(HubEvent.taskUpdated, peer);
    }
    this.refreshBadge();
    this.ctx.log.info('session removed', { task: id, ...uninstall });
    return { task, uninstall };
  }

  link(a: string, b: string): SessionDto {
    this.store.get(a);
    this.store.link(a, b);
    const ta = this.store.get(a);
    this.ctx.hub.broadcast(HubEvent.taskUpdated, ta);
    this.ctx.hub.broadcast(HubEvent.taskUpdated, this.store.get(b));
    return ta;
  }

  setStatus(id: string, status: SessionDto['status']): SessionDto {
    const changed = this.store.setStatus(id, status);
    if (changed) this.ctx.hub.broadcast(HubEvent.taskUpdated, changed);
    return changed ?? this.store.get(id);
  }

  /** A session showed signs of life (MCP call, hook run): queued → running. Done stays done. */
  touch(id: string): void {
    const t = this.store.find(id);
    if (t?.status === 'queued') this.setStatus(id, 'running');
  }

  send(sessionId: string, body: unknown, priority: unknown, from: Sender): { message_id: number; task_id: string; pending: number } {
    const text = validateBody(body);
    const prio = validatePriority(priority);
    const target = this.store.get(sessionId);
    const sender = from.kind === 'task' && this.store.find(from.id) ? from : ({ kind: 'user' } as const);
    const r = this.store.enqueue(sessionId, senderLabel(sender), text, prio);
    this.ctx.hub.broadcast(HubEvent.taskMessageQueued, sessionId, r.pending);
    this.refreshBadge();
    if (sender.kind === 'task') {
      const from = this.store.find(sender.id);
      // Notifications show plain text: drop the markdown punctuation from the first line.
      const first = (text.trim().split('\n')[0] ?? '').replace(/[`*_#>]/g, '').trim().slice(0, 140);
      this.ctx.platform.notify({ title: `${from?.name ?? sender.id} → ${target.name}`, body: prio === 'high' ? `(high priority) ${first}` : first });
    }
    return { message_id: r.id, task_id: sessionId, pending: r.pending };
  }

  checkInbox(sessionId: string): { task_id: string; messages: SessionMessageDto[]; pending: number } {
    const messages = this.store.deliver(sessionId);
    const pending = this.store.pending(sessionId);
    if (messages.length > 0) {
      this.ctx.hub.broadcast(HubEvent.taskMessageDelivered, sessionId, pending);
      this.refreshBadge();
    }
    return { task_id: sessionId, messages, pending };
  }

  /** The linked peer to send to: the only one, or the one named. */
  peerOf(sessionId: string, peerId?: string): string {
    const peers = this.store.get(sessionId).peers;
    if (peerId !== undefined) {
      if (!peers.includes(peerId)) throw new MailroomError('peer_not_found', `Session ${peerId} is not a peer of ${sessionId}. Its peers: ${peers.join(', ') || 'none'}.`, { peers });
      return peerId;
    }
    const [peer] = peers;
    if (peer === undefined) {
      throw new MailroomError('peer_not_found', `Session ${sessionId} has no linked peer. Link one with \`mailroom session add --peer\`, or use send_to_task with a task id.`, { peers });
    }
    if (peers.length > 1) {
      throw new MailroomError('ambiguous_peer', `Session ${sessionId} has ${peers.length} peers (${peers.join(', ')}); pass peer_id, or use send_to_task.`, { peers }, 409);
    }
    return peer;
  }
}

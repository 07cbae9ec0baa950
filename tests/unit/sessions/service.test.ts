import { describe, expect, it } from 'vitest';
import { SessionService } from '../../../electron/core/domains/sessions/service';
import { MailroomError } from '../../../electron/core/kernel/errors';
import { tempDir } from '../../helpers/owner';
import { mailboxContext } from './context';

function setup() {
  const m = mailboxContext();
  const svc = new SessionService(m.ctx);
  const session = (name: string, peer?: string) => svc.createSession({ name, workingDir: tempDir('mailroom-wd-'), peer });
  return { ...m, svc, session };
}

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as MailroomError).code;
  }
  throw new Error('expected an error');
};

describe('the session mailbox service', () => {
  it('queues messages for a new (queued) session, announcing pending counts and the badge', () => {
    const { svc, rec, session } = setup();
    const t = session('backend');
    expect(t.status).toBe('queued');
    expect(svc.send(t.id, 'first', undefined, { kind: 'user' }).pending).toBe(1);
    expect(svc.send(t.id, 'second', 'high', { kind: 'user' }).pending).toBe(2);
    const queued = rec.events.filter((e) => e.event === 'TaskMessageQueued').map((e) => e.args);
    expect(queued).toEqual([
      [t.id, 1],
      [t.id, 2],
    ]);
    expect(rec.badges.get('sessions')).toBe(2);
    expect(svc.get(t.id).pending).toBe(2);
  });

  it('delivers each message once, high priority first, and clears the badge', () => {
    const { svc, rec, session } = setup();
    const t = session('backend');
    svc.send(t.id, 'normal 1', 'normal', { kind: 'user' });
    svc.send(t.id, 'urgent', 'high', { kind: 'user' });
    svc.send(t.id, 'normal 2', undefined, { kind: 'user' });
    const first = svc.checkInbox(t.id);
    expect(first.messages.map((m) => m.body)).toEqual(['urgent', 'normal 1', 'normal 2']);
    expect(first.messages.every((m) => m.delivered_at !== null && m.sender === 'user')).toBe(true);
    expect(first.pending).toBe(0);
    expect(svc.checkInbox(t.id).messages).toEqual([]);
    expect(rec.events.filter((e) => e.event === 'TaskMessageDelivered').map((e) => e.args)).toEqual([[t.id, 0]]);
    expect(rec.badges.get('sessions')).toBe(0);
    // Soft-kept: the timeline still has them, with delivery times.
    const timeline = svc.store.timeline(t.id);
    expect(timeline.map((m) => m.body)).toEqual(['normal 1', 'urgent', 'normal 2']);
    expect(timeline.every((m) => m.delivered_at)).toBe(true);
  });

  it('rejects unknown sessions, empty bodies and bodies over 64 KiB with their codes', () => {
    const { svc, session } = setup();
    const t = session('s');
    expect(codeOf(() => svc.send('nope', 'hi', undefined, { kind: 'user' }))).toBe('task_not_found');
    expect(codeOf(() => svc.checkInbox('nope'))).toBe('task_not_found');
    expect(codeOf(() => svc.send(t.id, '', undefined, { kind: 'user' }))).toBe('invalid_argument');
    expect(codeOf(() => svc.send(t.id, '  \n ', undefined, { kind: 'user' }))).toBe('invalid_argument');
    expect(codeOf(() => svc.send(t.id, 'x'.repeat(64 * 1024 + 1), undefined, { kind: 'user' }))).toBe('invalid_argument');
    // Bytes, not characters: 32 769 two-byte characters are over the limit.
    expect(codeOf(() => svc.send(t.id, 'é'.repeat(32 * 1024 + 1), undefined, { kind: 'user' }))).toBe('invalid_argument');
    expect(svc.send(t.id, 'x'.repeat(64 * 1024), undefined, { kind: 'user' }).pending).toBe(1);
    expect(codeOf(() => svc.send(t.id, 'hi', 'urgent', { kind: 'user' }))).toBe('invalid_argument');
  });

  it('moves queued → running on signs of life, and done stays done', () => {
    const { svc, rec, session } = setup();
    const t = session('s');
    svc.touch(t.id);
    expect(svc.get(t.id).status).toBe('running');
    svc.touch(t.id);
    expect(rec.events.filter((e) => e.event === 'TaskUpdated' && (e.args[0] as { status: string }).status === 'running')).toHaveLength(1);
    svc.setStatus(t.id, 'done');
    svc.touch(t.id);
    expect(svc.get(t.id).status).toBe('done');
  });

  it('links peers both ways, resolves the one peer, and explains no peer or several', () => {
    const { svc, rec, session } = setup();
    const backend = session('backend');
    const frontend = session('frontend', backend.id);
    expect(svc.get(backend.id).peers).toEqual([frontend.id]);
    expect(svc.peerOf(frontend.id)).toBe(backend.id);
    const lonely = session('lonely');
    expect(codeOf(() => svc.peerOf(lonely.id))).toBe('peer_not_found');
    const docs = session('docs', backend.id);
    expect(codeOf(() => svc.peerOf(backend.id))).toBe('ambiguous_peer');
    expect(svc.peerOf(backend.id, docs.id)).toBe(docs.id);
    // A session writing to another is a desktop notification.
    svc.send(backend.id, 'API is ready\nmore details', undefined, { kind: 'task', id: frontend.id });
    expect(rec.notifications).toEqual([{ title: 'frontend → backend', body: 'API is ready' }]);
    expect(svc.store.timeline(backend.id)[0].sender).toBe(`task:${frontend.id}`);
  });

  it('refuses a second session in the same folder and a folder that does not exist', () => {
    const { svc } = setup();
    const dir = tempDir('mailroom-wd-');
    svc.createSession({ name: 'a', workingDir: dir });
    expect(codeOf(() => svc.createSession({ name: 'b', workingDir: dir }))).toBe('conflict');
    expect(codeOf(() => svc.createSession({ name: 'c', workingDir: dir + '/missing' }))).toBe('invalid_argument');
    expect(codeOf(() => svc.createSession({ name: 'd', workingDir: tempDir(), peer: 'nope' }))).toBe('task_not_found');
  });

  it('removing a session forgets its messages and updates the badge', () => {
    const { svc, rec, session } = setup();
    const t = session('s');
    svc.send(t.id, 'hi', undefined, { kind: 'user' });
    expect(rec.badges.get('sessions')).toBe(1);
    svc.removeSession(t.id);
    expect(svc.list()).toEqual([]);
    expect(rec.badges.get('sessions')).toBe(0);
    expect(rec.events.some((e) => e.event === 'TaskRemoved' && e.args[0] === t.id)).toBe(true);
  });
});

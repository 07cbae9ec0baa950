import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionService } from '../../../electron/core/domains/sessions/service';
import { REPO_ROOT, tempDir } from '../../helpers/owner';
import { mailboxContext } from '../../unit/sessions/context';

const PULLER = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'puller.ts');

function startPuller(dbFile: string, sessionId: string): { child: ChildProcess; ready: Promise<void>; done: Promise<string[]> } {
  const child = spawn(process.execPath, ['--import', 'tsx', PULLER, dbFile, sessionId], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  child.stdout!.on('data', (d) => {
    out += d;
    if (out.startsWith('ready\n')) markReady();
  });
  child.stderr!.on('data', (d) => (err += d));
  const done = new Promise<string[]>((resolve, reject) =>
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`puller exited ${code}: ${err}`));
      resolve(out.split('\n').slice(1).filter(Boolean).map((l) => JSON.parse(l) as string));
    }),
  );
  return { child, ready, done };
}

describe('exactly-once delivery across processes sharing the state DB', () => {
  it('two processes pulling while a third writes 1,000 messages never both get one', async () => {
    const { ctx, dbFile } = mailboxContext();
    const svc = new SessionService(ctx);
    const t = svc.createSession({ name: 'shared', workingDir: tempDir() });
    const a = startPuller(dbFile, t.id);
    const b = startPuller(dbFile, t.id);
    await Promise.all([a.ready, b.ready]);
    for (let i = 0; i < 1_000; i++) {
      svc.send(t.id, String(i), undefined, { kind: 'user' });
      if (i % 50 === 0) await new Promise((r) => setImmediate(r)); // let the pullers interleave
    }
    // One STOP each; whichever pulls first takes both, so send two rounds until both exit.
    const stopAll = async () => {
      const exited = { a: false, b: false };
      void a.done.then(() => (exited.a = true), () => (exited.a = true));
      void b.done.then(() => (exited.b = true), () => (exited.b = true));
      while (!exited.a || !exited.b) {
        svc.send(t.id, 'STOP', undefined, { kind: 'user' });
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await stopAll();
    const [ga, gb] = await Promise.all([a.done, b.done]);
    const all = [...ga, ...gb];
    expect(all.length).toBe(1_000);
    expect(new Set(all).size).toBe(1_000);
    expect(ga.length + gb.length).toBe(1_000);
  }, 60_000);
});

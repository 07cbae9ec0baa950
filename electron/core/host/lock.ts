import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../kernel/fs';
import { coreRoutes } from '../../../shared/contract/core';

/** `<data-dir>/mailroom.lock`: who owns this data dir and where it listens. */
export interface LockInfo {
  pid: number;
  /** 0 while the owner is still starting. */
  port: number;
  started: string;
}

export const lockPath = (dataDir: string) => path.join(dataDir, 'mailroom.lock');
export const tokenPath = (dataDir: string) => path.join(dataDir, 'token');

export function readLock(dataDir: string): LockInfo | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(lockPath(dataDir), 'utf8')) as LockInfo;
    return typeof v.pid === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The token every request must carry; created once with mode 0600. */
export function ensureToken(dataDir: string): string {
  const file = tokenPath(dataDir);
  ensurePrivateDir(dataDir);
  try {
    const t = fs.readFileSync(file, 'utf8').trim();
    if (t.length >= 32) return t;
  } catch {
    /* create below */
  }
  const token = crypto.randomBytes(32).toString('base64url');
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, token, { mode: 0o600 });
  try {
    fs.linkSync(tmp, file); // atomic create-if-absent: a racing process keeps its own token
  } catch {
    /* another process won; use theirs */
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return fs.readFileSync(file, 'utf8').trim();
}

function writeAtomic(file: string, text: string) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * Takes the data dir's owner lock. Returns false when a live process holds it. A lock left by a
 * dead process is taken over; a short takeover mutex keeps two contenders from both winning.
 */
export function tryAcquireLock(dataDir: string): boolean {
  ensurePrivateDir(dataDir);
  const file = lockPath(dataDir);
  const mine: LockInfo = { pid: process.pid, port: 0, started: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, JSON.stringify(mine));
      fs.closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const held = readLock(dataDir);
    if (held && held.pid !== process.pid && pidAlive(held.pid)) return false;
    if (held && held.pid === process.pid) return true;
    // Stale (dead pid or unreadable). Only the holder of the takeover mutex may remove it.
    const mutex = `${file}.takeover`;
    try {
      const st = fs.statSync(mutex);
      if (Date.now() - st.mtimeMs > 5_000) fs.rmSync(mutex, { force: true });
    } catch {
      /* no mutex */
    }
    try {
      fs.writeFileSync(mutex, String(process.pid), { flag: 'wx' });
    } catch {
      return false; // someone else is taking over right now
    }
    try {
      const again = readLock(dataDir);
      if (again && again.pid !== process.pid && pidAlive(again.pid)) return false;
      fs.rmSync(file, { force: true });
    } finally {
      fs.rmSync(mutex, { force: true });
    }
  }
  return false;
}

export function publishPort(dataDir: string, port: number): void {
  const cur = readLock(dataDir);
  if (!cur || cur.pid !== process.pid) throw new Error('lost the owner lock');
  writeAtomic(lockPath(dataDir), JSON.stringify({ ...cur, port }));
}

export function releaseLock(dataDir: string): void {
  const cur = readLock(dataDir);
  if (cur?.pid === process.pid) fs.rmSync(lockPath(dataDir), { force: true });
}

export interface RunningOwner {
  pid: number;
  port: number;
  url: string;
  token: string;
}

/** A live owner for this data dir that answers /api/health, or undefined. Waits out a starting one. */
export async function findOwner(dataDir: string, waitMs = 5_000): Promise<RunningOwner | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const lock = readLock(dataDir);
    if (!lock || !pidAlive(lock.pid)) return undefined;
    if (lock.port > 0) {
      const token = fs.existsSync(tokenPath(dataDir)) ? fs.readFileSync(tokenPath(dataDir), 'utf8').trim() : '';
      const url = `http://127.0.0.1:${lock.port}`;
      try {
        const r = await fetch(url + coreRoutes.health.path, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(1_500) });
        if (r.ok) return { pid: lock.pid, port: lock.port, url, token };
      } catch {
        /* not answering (yet) */
      }
    }
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
}

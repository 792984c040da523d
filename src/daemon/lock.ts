import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { stateDir } from '../sync/index.js';

/** Who holds a workspace's daemon lock. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the daemon started. */
  startedAt: string;
}

/** Another live daemon watches the workspace. */
export class DaemonLockedError extends Error {
  constructor(
    readonly holder: LockHolder,
    readonly dir: string,
  ) {
    super(`another docsync daemon (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}) is watching ${dir}; stop it first, or wait for it to exit`);
    this.name = 'DaemonLockedError';
  }
}

/** `.git/docsync/daemon.lock`: beside the state, so it never travels with a push. */
export const lockPath = (workspace: string) => join(stateDir(workspace), 'daemon.lock');

/**
 * True while `pid` runs on this host. Signal 0 checks without sending anything; EPERM means the
 * process exists but belongs to someone else, which is alive all the same. A lock from another
 * host cannot be checked from here and counts as alive.
 */
export function isAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const holder = JSON.parse(text) as Partial<LockHolder>;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string' && typeof holder.startedAt === 'string') return holder as LockHolder;
  } catch {
    // A lock cut short by a crash while it was written: nobody holds it.
  }
  return { pid: 0, host: hostname(), startedAt: 'unknown' };
}

/** The daemon holding the workspace's lock, when one is alive. */
export async function readDaemonLock(workspace: string): Promise<LockHolder | undefined> {
  const holder = await readHolder(lockPath(workspace));
  return holder && holder.pid !== 0 && isAlive(holder) ? holder : undefined;
}

const sameHolder = (a: LockHolder | undefined, b: LockHolder) => a?.pid === b.pid && a.host === b.host && a.startedAt === b.startedAt;

export interface DaemonLock {
  holder: LockHolder;
  /** Removes the lock, if it is still ours. */
  release(): Promise<void>;
}

/**
 * Takes the workspace's daemon lock: created exclusively, so of two daemons starting at once one
 * wins. A lock left by a dead process is taken over: it is first renamed aside, which only one
 * of several racing takers can do, and put back if what was moved turns out to be a live lock
 * written in between.
 */
export async function acquireDaemonLock(workspace: string, startedAt = new Date().toISOString()): Promise<DaemonLock> {
  const path = lockPath(workspace);
  await mkdir(stateDir(workspace), { recursive: true });
  const mine: LockHolder = { pid: process.pid, host: hostname(), startedAt };
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      await writeFile(path, `${JSON.stringify(mine)}\n`, { flag: 'wx' });
      return {
        holder: mine,
        async release() {
          if (sameHolder(await readHolder(path), mine)) await unlink(path).catch(() => undefined);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readHolder(path);
    if (holder === undefined) continue;
    if (holder.pid !== 0 && isAlive(holder)) throw new DaemonLockedError(holder, workspace);
    const aside = `${path}.stale-${process.pid}`;
    try {
      await rename(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const moved = await readHolder(aside);
    if (moved !== undefined && moved.pid !== 0 && !sameHolder(moved, holder) && isAlive(moved)) {
      // Another daemon took the stale lock over between our read and our rename: give it back.
      await link(aside, path).catch(() => undefined);
      await unlink(aside).catch(() => undefined);
      throw new DaemonLockedError(moved, workspace);
    }
    await unlink(aside).catch(() => undefined);
  }
  throw new Error(`could not take ${path}: it keeps changing (several daemons starting at once?)`);
}

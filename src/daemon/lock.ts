import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { BaseError } from '../model/index.js';
import { stateDir } from '../sync/index.js';

/** Who holds a workspace's daemon lock. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the daemon started. */
  startedAt: string;
}

/** The daemon layer's codes: both are another process's doing, so expected. */
export const DAEMON_ERROR_CODES = [
  /** Another live daemon (`watch`, `up`) holds the workspace's daemon lock. */
  'daemon-running',
  /** The workspace's sync lock stayed held by another docsync process longer than the wait. */
  'workspace-busy',
] as const;

export type DaemonErrorCode = (typeof DAEMON_ERROR_CODES)[number];

/** Another live daemon watches the workspace. */
export class DaemonLockedError extends BaseError<'daemon-running'> {
  constructor(
    readonly holder: LockHolder,
    readonly dir: string,
  ) {
    super(
      'daemon-running',
      `another docsync daemon (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}) is watching ${dir}; stop it first, or wait for it to exit`,
      { data: { holder, dir } },
    );
  }
}

/** A mutex stayed held by another live docsync process for longer than the caller would wait. */
export class WorkspaceBusyError extends BaseError<'workspace-busy'> {
  constructor(
    readonly path: string,
    readonly holder: LockHolder | undefined,
    readonly waitedMs: number,
  ) {
    super(
      'workspace-busy',
      `${path} has been held for ${Math.round(waitedMs / 1000)} s by another docsync process${holder ? ` (pid ${holder.pid} on ${holder.host})` : ''}; try again when it is done, or remove the file if no docsync is running`,
      { data: { path, waitedMs } },
    );
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
    // pid 0 and negative pids name process groups, which signal 0 always finds alive.
    if (Number.isSafeInteger(holder.pid) && holder.pid! > 0 && typeof holder.host === 'string' && typeof holder.startedAt === 'string')
      return holder as LockHolder;
  } catch {
    // Not JSON: nobody holds it.
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

/** Writes `holder` to a file of its own, whole, so that it can appear under `path` in one step. */
async function draft(path: string, holder: LockHolder): Promise<string> {
  const temp = `${path}.${process.pid}-${randomBytes(6).toString('hex')}`;
  await writeFile(temp, `${JSON.stringify(holder)}\n`, { flag: 'wx' });
  return temp;
}

/**
 * Takes `path` as a short-lived mutex (held for the few milliseconds of a check and a write).
 * It appears whole (a hard link to a file already written), so a reader never sees it half
 * written. One left by a dead process is renamed aside, which only one taker can do.
 * Invariant: two holders at once are possible only when a holder died inside its few
 * milliseconds and several takers find its mutex at that same moment.
 */
export async function takeMutex(path: string, mine: LockHolder, waitMs = 10_000): Promise<() => Promise<void>> {
  const temp = await draft(path, mine);
  try {
    for (const until = Date.now() + waitMs; Date.now() < until;) {
      try {
        await link(temp, path);
        return async () => {
          if (sameHolder(await readHolder(path), mine)) await unlink(path).catch(() => undefined);
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readHolder(path);
      if (holder !== undefined && holder.pid !== 0 && isAlive(holder)) {
        await new Promise((wake) => setTimeout(wake, 5 + Math.random() * 20));
        continue;
      }
      if (holder === undefined) continue;
      const aside = `${path}.stale-${process.pid}`;
      try {
        await rename(path, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const moved = await readHolder(aside);
      // A live mutex taken between our read and our rename: give it back.
      if (moved !== undefined && moved.pid !== 0 && !sameHolder(moved, holder) && isAlive(moved))
        await link(aside, path).catch(() => undefined);
      await unlink(aside).catch(() => undefined);
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  const holder = await readHolder(path);
  throw new WorkspaceBusyError(path, holder, waitMs);
}

/**
 * Takes the workspace's daemon lock. Checking the lock and writing ours happen under a mutex
 * beside it, so of several daemons starting at once exactly one wins, including when they all
 * find a stale lock to take over. The lock is replaced by a rename, never left empty.
 */
export async function acquireDaemonLock(workspace: string, startedAt = new Date().toISOString()): Promise<DaemonLock> {
  const path = lockPath(workspace);
  await mkdir(stateDir(workspace), { recursive: true });
  const mine: LockHolder = { pid: process.pid, host: hostname(), startedAt };
  const release = await takeMutex(`${path}.taking`, { ...mine, startedAt: randomBytes(8).toString('hex') });
  try {
    const holder = await readHolder(path);
    if (holder !== undefined && holder.pid !== 0 && isAlive(holder)) throw new DaemonLockedError(holder, workspace);
    await rename(await draft(path, mine), path);
  } finally {
    await release();
  }
  return {
    holder: mine,
    async release() {
      if (sameHolder(await readHolder(path), mine)) await unlink(path).catch(() => undefined);
    },
  };
}

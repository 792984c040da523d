import { access } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { stateDir } from '../sync/index.js';
import { takeMutex } from './lock.js';

/** `.git/docsync/sync.lock`: held while one process pulls, pushes, merges or updates the workspace. */
export const syncLockPath = (workspace: string) => join(stateDir(workspace), 'sync.lock');

/**
 * Runs `fn` while holding the workspace's sync lock, so that the daemon's cycle and a command
 * typed in another shell (`docsync push`, `pull`, `merge`, ...) never write the sync state or the
 * branches at the same time: the second waits for the first, up to `waitMs` (a large push takes
 * a while), then fails with `WorkspaceBusyError`. A lock left by a dead process is taken over.
 */
export async function withWorkspaceLock<T>(workspace: string, fn: () => Promise<T>, options: { waitMs?: number } = {}): Promise<T> {
  // Not a docsync workspace (or no longer one): nothing to guard, and `fn` says what is wrong.
  // Never created here: a folder deleted under the daemon must not come back as `.git/docsync`.
  if (
    !(await access(stateDir(workspace)).then(
      () => true,
      () => false,
    ))
  )
    return fn();
  const release = await takeMutex(
    syncLockPath(workspace),
    { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() },
    options.waitMs ?? 600_000,
  );
  try {
    return await fn();
  } finally {
    await release();
  }
}

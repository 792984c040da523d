import { open, rename, rm } from 'node:fs/promises';

/** Given to the work done under a lock file: `replace` sets what the locked file becomes once the work returns. */
export interface LockFile {
  replace(data: Buffer | string): void;
}

/** Between two tries at a lock file another process holds. */
export const LOCK_RETRY_MS = 20;

/**
 * How long docsync waits for a lock file another process holds before it refuses, as git waits
 * for a branch's (`core.filesRefLockTimeout`, 100 ms by default): a `git status` in another shell
 * (an editor runs it all the time) holds `index.lock` for a moment to refresh the index, and a
 * commit that met it must not fail for that. A lock a killed process left is still refused.
 */
export const LOCK_WAIT_MS = 1_000;

/**
 * git's lock-file protocol for `path`: `<path>.lock` is created exclusively, `work` runs while
 * it is held, and the lock file is then renamed over `path` if `work` gave a replacement, so the
 * new content appears whole. Otherwise, and whenever `work` throws, the lock file is removed and
 * `path` stays as it was.
 * @returns what `work` returned; when the lock file cannot be created (one another process holds
 *   still exists after `waitMs`), what `refused` returns
 *   for the error (or throws).
 */
export async function withLockFile<T, R>(
  path: string,
  work: (lock: LockFile) => Promise<T>,
  refused: (error: NodeJS.ErrnoException) => R,
  /** How long a lock file another process holds is waited for before `refused` is called. */
  waitMs = 0,
): Promise<T | R> {
  const lockPath = `${path}.lock`;
  let handle;
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      handle = await open(lockPath, 'wx');
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() >= until) return refused(error as NodeJS.ErrnoException);
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }
  let renamed = false;
  try {
    let replacement: Buffer | string | null = null;
    const result = await work({ replace: (data) => void (replacement = data) });
    if (replacement !== null) {
      await handle.writeFile(replacement);
      await handle.close();
      await rename(lockPath, path);
      renamed = true;
    }
    return result;
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await rm(lockPath, { force: true });
    }
  }
}

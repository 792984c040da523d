import { open, rename, rm } from 'node:fs/promises';

/** Given to the work done under a lock file: `replace` sets what the locked file becomes once the work returns. */
export interface LockFile {
  replace(data: Buffer | string): void;
}

/**
 * git's lock-file protocol for `path`: `<path>.lock` is created exclusively, `work` runs while
 * it is held, and the lock file is then renamed over `path` if `work` gave a replacement, so the
 * new content appears whole. Otherwise, and whenever `work` throws, the lock file is removed and
 * `path` stays as it was.
 * @returns what `work` returned; when the lock file cannot be created, what `refused` returns
 *   for the error (or throws).
 */
export async function withLockFile<T, R>(
  path: string,
  work: (lock: LockFile) => Promise<T>,
  refused: (error: NodeJS.ErrnoException) => R,
): Promise<T | R> {
  const lockPath = `${path}.lock`;
  let handle;
  try {
    handle = await open(lockPath, 'wx');
  } catch (error) {
    return refused(error as NodeJS.ErrnoException);
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

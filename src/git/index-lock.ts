import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { withKeyLock } from './lock.js';
import type { Repo } from './repo.js';

const LOCK_REFUSED = new Set(['EEXIST', 'EACCES', 'EPERM', 'EROFS']);

/** Given to the work done under the lock: `replace` sets what the index becomes once the work returns. */
export interface IndexLock {
  replace(data: Buffer): void;
}

/**
 * Runs `work` holding the index's lock as git does (`index.lock`, created exclusively, and one
 * holder at a time within this process), and then renames the lock file over the index if
 * `work` gave a replacement. Nothing is written when `work` throws: the lock file is removed and
 * the index stays as it was.
 * @returns what `work` returned, or 'locked' (without running it) when another process holds the lock.
 */
export async function withIndexLock<T>(r: Repo, work: (lock: IndexLock) => Promise<T>): Promise<T | 'locked'> {
  const path = join(r.gitdir, 'index');
  const lockPath = `${path}.lock`;
  return withKeyLock(path, async () => {
    let handle;
    try {
      handle = await open(lockPath, 'wx');
    } catch (error) {
      if (LOCK_REFUSED.has((error as NodeJS.ErrnoException).code ?? '')) return 'locked' as const;
      throw error;
    }
    let renamed = false;
    try {
      let replacement: Buffer | null = null;
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
  });
}

import { join } from 'node:path';
import { withKeyLock } from '../lock.js';
import { type LockFile, withLockFile } from '../lock-file.js';
import type { Repo } from '../repo.js';

/** Why `index.lock` cannot be created: another process holds it, or the repository is read-only. */
const LOCK_REFUSED = new Set(['EEXIST', 'EACCES', 'EPERM', 'EROFS']);

/** Given to the work done under the lock: `replace` sets what the index becomes once the work returns. */
export type IndexLock = LockFile;

/**
 * Runs `work` holding the index's lock as git does (`index.lock`, created exclusively, and one
 * holder at a time within this process), and then renames the lock file over the index if
 * `work` gave a replacement. Nothing is written when `work` throws: the lock file is removed and
 * the index stays as it was.
 * @returns what `work` returned, or 'locked' (without running it) when another process holds
 *   the lock or the index cannot be written.
 */
export async function withIndexLock<T>(r: Repo, work: (lock: IndexLock) => Promise<T>): Promise<T | 'locked'> {
  const path = join(r.gitdir, 'index');
  return withKeyLock(path, () =>
    withLockFile(path, work, (error) => {
      if (LOCK_REFUSED.has(error.code ?? '')) return 'locked' as const;
      throw error;
    }),
  );
}

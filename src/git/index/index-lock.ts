import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { GitError } from '../errors.js';
import { withKeyLock } from '../lock.js';
import { LOCK_RETRY_MS, LOCK_WAIT_MS, type LockFile, withLockFile } from '../lock-file.js';
import type { Repo } from '../repo.js';

/** Why `index.lock` cannot be created when the repository is read-only. */
const READ_ONLY = new Set(['EACCES', 'EPERM', 'EROFS']);

/** Given to the work done under the lock: `replace` sets what the index becomes once the work returns. */
export type IndexLock = LockFile;

/**
 * Runs `work` holding the index's lock as git does (`index.lock`, created exclusively, and one
 * holder at a time within this process), and then renames the lock file over the index if
 * `work` gave a replacement. Nothing is written when `work` throws: the lock file is removed and
 * the index stays as it was.
 * @returns what `work` returned, or (without running it) 'locked' when `index.lock` still exists
 *   after `waitMs` (another process holds it, or a killed one left it) and 'read-only' when it
 *   cannot be made.
 */
export async function withIndexLock<T>(
  r: Repo,
  work: (lock: IndexLock) => Promise<T>,
  waitMs = LOCK_WAIT_MS,
): Promise<T | 'locked' | 'read-only'> {
  const path = join(r.gitdir, 'index');
  return withKeyLock(path, () =>
    withLockFile(
      path,
      work,
      (error) => {
        if (error.code === 'EEXIST') return 'locked' as const;
        if (READ_ONLY.has(error.code ?? '')) return 'read-only' as const;
        throw error;
      },
      waitMs,
    ),
  );
}

/**
 * What a writer of the index says when `index.lock` exists, as git says it: it neither waits nor
 * writes around it (isomorphic-git's own index writes ignore the lock, and are not atomic).
 */
export function indexLocked(r: Repo): GitError {
  const path = join(r.gitdir, 'index.lock');
  return new GitError(
    'ref-locked',
    `cannot write the index of ${r.dir}: ${path} exists (another git process is running, or remove it if one crashed)`,
    { dir: r.dir, path },
  );
}

/**
 * Refuses as {@link indexLocked} when `index.lock` exists for longer than git's wait, before a
 * write through isomorphic-git (which takes no lock file): a check, not a lock, so the general
 * way still says what git says.
 */
export async function refuseLockedIndex(r: Repo): Promise<void> {
  const until = Date.now() + LOCK_WAIT_MS;
  const held = () =>
    access(join(r.gitdir, 'index.lock')).then(
      () => true,
      () => false,
    );
  while (await held()) {
    if (Date.now() >= until) throw indexLocked(r);
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
}

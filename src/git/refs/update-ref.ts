import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as git from 'isomorphic-git';
import { GitError } from '../errors.js';
import { withKeyLock } from '../lock.js';
import { LOCK_WAIT_MS, withLockFile } from '../lock-file.js';
import type { Repo } from '../repo.js';
import { appendReflog, type RefLogNote } from './reflog.js';

/** `main` → `refs/heads/main`; a name that already starts with `refs/` is kept. */
export function fullRef(branch: string): string {
  return branch.startsWith('refs/') ? branch : `refs/heads/${branch}`;
}

/** The oid a ref points at, or null when it does not exist (loose or packed). */
export async function readRef(r: Repo, ref: string): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: r.fs, gitdir: r.gitdir, ref });
  } catch (error) {
    if (error instanceof git.Errors.NotFoundError) return null;
    throw error;
  }
}

/**
 * Moves `ref` to `next` only if it points at `expected` now (null: only if it does not exist).
 *
 * Invariants, the same as `git update-ref <ref> <new> <old>`:
 * - within this process, updates of one ref run one at a time, so the check and the write of
 *   one update are never interleaved with another's;
 * - across processes, `<ref>.lock` is created exclusively before the check and renamed over
 *   the ref after it, the protocol the git CLI uses, so a concurrent `git commit` cannot slip
 *   in between either; the rename makes the new value appear atomically.
 * - on any failure the ref is unchanged and the lock file is gone;
 * - once the ref moved, its reflog (and HEAD's, when HEAD points at it) gets the entry git
 *   would write, with `note`'s message, so `git reflog` shows and can undo what docsync did.
 */
export async function updateRef(r: Repo, ref: string, expected: string | null, next: string, note: RefLogNote): Promise<void> {
  const refPath = join(r.gitdir, ref);
  await withKeyLock(refPath, async () => {
    await mkdir(dirname(refPath), { recursive: true });
    await withLockFile(
      refPath,
      async (lock) => {
        const actual = await readRef(r, ref);
        if (actual !== expected) {
          throw new GitError('ref-moved', `${ref} in ${r.dir} points at ${actual ?? 'nothing'}, expected ${expected ?? 'nothing'}`, {
            dir: r.dir,
            ref,
            expected,
            actual,
          });
        }
        lock.replace(`${next}\n`);
      },
      (error) => {
        if (error.code !== 'EEXIST') throw error;
        throw new GitError(
          'ref-locked',
          `cannot update ${ref} in ${r.dir}: ${refPath}.lock exists (another git process is running, or remove it if one crashed)`,
          { dir: r.dir, ref },
        );
      },
      LOCK_WAIT_MS,
    );
    await appendReflog(r, ref, expected, next, note);
  });
}

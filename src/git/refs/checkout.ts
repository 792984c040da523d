import * as git from 'isomorphic-git';
import { GitError } from '../errors.js';
import { repo } from '../repo.js';
import { fullRef, readRef } from './update-ref.js';
import { appendReflog } from './reflog.js';
import { excludeTemporaryFiles } from '../atomic-fs.js';

/**
 * Checks out `branch`: HEAD names it, and the working tree and index hold its commit.
 *
 * Local changes are carried over when the switch does not touch their files, as with
 * `git checkout`. When it would overwrite one (a changed or deleted tracked file that differs
 * between the two commits, or an untracked file where the branch has a different one), nothing
 * is changed and `dirty-working-tree` lists the files in `data.paths`; `force` discards those
 * changes instead. Untracked files the branch does not have are never removed.
 *
 * Checking out the branch that is already checked out brings the working tree to the branch's
 * commit, which is how the working tree follows a branch moved by commitFiles.
 */
export async function checkoutBranch(dir: string, branch: string, options: { force?: boolean } = {}): Promise<void> {
  const r = await repo(dir);
  const target = await readRef(r, fullRef(branch));
  if (target === null) {
    throw new GitError('not-found', `branch ${branch} not found in ${r.dir}`, { dir: r.dir, branch });
  }
  const from = await git.currentBranch({ fs: r.fs, gitdir: r.gitdir, fullname: false }).catch(() => undefined);
  const fromOid = await readRef(r, 'HEAD');
  // isomorphic-git writes the files through gitFs: each through a temporary file (replaceFile).
  await excludeTemporaryFiles(r.gitdir);
  try {
    await git.checkout({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, ref: branch, force: options.force === true, cache: r.cache });
  } catch (error) {
    if (error instanceof git.Errors.CheckoutConflictError) {
      const paths = [...error.data.filepaths].sort();
      throw new GitError(
        'dirty-working-tree',
        `checking out ${branch} would overwrite local changes in ${r.dir}: ${paths.join(', ')} (commit them, or force)`,
        { dir: r.dir, branch, paths },
        { cause: error },
      );
    }
    throw error;
  }
  // HEAD's log records a switch, as `git checkout` writes it (not a re-checkout of the same branch).
  if (from !== branch)
    await appendReflog(r, 'HEAD', fromOid, target, { message: `checkout: moving from ${from ?? fromOid ?? 'nothing'} to ${branch}` });
}

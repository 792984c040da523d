import * as git from 'isomorphic-git';
import { GitError } from '../errors.js';
import { checkBranchName, comparePaths } from '../format/paths.js';
import { notFoundAs, repo } from '../repo.js';
import { fullRef, readRef, updateRef } from './update-ref.js';

/**
 * The commit a branch points at, or null when the branch does not exist (for example `main`
 * of a repository with no commit yet).
 */
export async function branchOid(dir: string, branch: string): Promise<string | null> {
  return readRef(await repo(dir), fullRef(branch));
}

/** Local branch names (`refs/heads/*`, packed or loose), in byte order. */
export async function listBranches(dir: string): Promise<string[]> {
  const r = await repo(dir);
  const names = await git.listBranches({ fs: r.fs, gitdir: r.gitdir });
  return names.sort(comparePaths);
}

/** The branch HEAD names (even one without commits yet), or null when HEAD is detached. */
export async function currentBranch(dir: string): Promise<string | null> {
  const r = await repo(dir);
  const name = await git.currentBranch({ fs: r.fs, gitdir: r.gitdir, fullname: false });
  return typeof name === 'string' ? name : null;
}

/**
 * Creates `name` at commit `oid`. Throws `already-exists` when the branch exists, `not-found`
 * when `oid` is not a commit of this repository, `invalid-ref` for a name git would refuse.
 */
export async function createBranch(dir: string, name: string, oid: string): Promise<void> {
  const r = await repo(dir);
  checkBranchName(name);
  await notFoundAs(r, `commit ${oid}`, () => git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache }));
  try {
    await updateRef(r, fullRef(name), null, oid, { message: `branch: Created from ${oid}` });
  } catch (error) {
    if (error instanceof GitError && error.code === 'ref-moved') {
      throw new GitError('already-exists', `branch ${name} already exists in ${r.dir}`, { dir: r.dir, branch: name });
    }
    throw error;
  }
}

/**
 * Deletes branch `name` (loose and packed). Refuses the checked-out branch (`checked-out`), as
 * `git branch -d` does; `not-found` when there is no such branch.
 */
export async function deleteBranch(dir: string, name: string): Promise<void> {
  const r = await repo(dir);
  if ((await readRef(r, fullRef(name))) === null) {
    throw new GitError('not-found', `branch ${name} not found in ${r.dir}`, { dir: r.dir, branch: name });
  }
  const current = await git.currentBranch({ fs: r.fs, gitdir: r.gitdir });
  if (current === name) {
    throw new GitError('checked-out', `cannot delete branch ${name}: it is checked out in ${r.dir}`, { dir: r.dir, branch: name });
  }
  await git.deleteRef({ fs: r.fs, gitdir: r.gitdir, ref: fullRef(name) });
}

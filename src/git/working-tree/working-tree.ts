import { mkdir, realpath, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { excludeTemporaryFiles, replaceFile } from '../atomic-fs.js';
import * as git from 'isomorphic-git';
import { GitError } from '../errors.js';
import { FALLBACK, fastCommitWorkingTree } from '../commit/fast-commit.js';
import { checkPath, comparePaths } from '../format/paths.js';
import type { Person } from '../commit/commit-files.js';
import { repo, type Repo } from '../repo.js';
import { statusRows } from './status-matrix.js';
import { refuseLockedIndex } from '../index/index-lock.js';
import { fullRef, readRef, updateRef } from '../refs/update-ref.js';
import { commitNote } from '../refs/reflog.js';

export interface WorkingTreeChange {
  path: string;
  status: 'added' | 'modified' | 'deleted';
}

/**
 * Files of the working tree that differ from HEAD's commit, whether staged or not: new files
 * (`added`, untracked ones included), changed ones, and deleted ones. Files matched by
 * `.gitignore` (unless tracked) and everything under `.git/` are left out. Sorted by path.
 */
export async function workingTreeChanges(dir: string): Promise<WorkingTreeChange[]> {
  const r = await repo(dir);
  const changes: WorkingTreeChange[] = [];
  for (const [path, head, workdir] of await statusRows(r)) {
    if (head === 1 && workdir === 0) changes.push({ path, status: 'deleted' });
    else if (head === 0 && workdir === 2) changes.push({ path, status: 'added' });
    else if (head === 1 && workdir === 2) changes.push({ path, status: 'modified' });
  }
  return changes.sort((a, b) => comparePaths(a.path, b.path));
}

/**
 * Writes files into the working tree (null deletes one, and folders it leaves empty). Each
 * file is written to a temporary file beside it and renamed over the old one (replaceFile: its
 * mode kept, a symbolic link in its place replaced, not followed), so a reader (an editor, a
 * kill) sees the old or the new content, never half of it. Paths are checked:
 * none may leave the working tree, also not through a symbolic link to a folder outside it.
 * The index is not touched.
 */
export async function writeWorkingFiles(dir: string, files: ReadonlyMap<string, Uint8Array | string | null>): Promise<void> {
  const r = await repo(dir);
  const root = await realpath(r.dir);
  for (const path of files.keys()) checkPath(path);
  await excludeTemporaryFiles(r.gitdir);
  for (const [path, content] of files) {
    const target = join(r.dir, path);
    const parent = dirname(target);
    if (content === null) {
      await rm(target, { force: true });
      await removeEmptyFolders(r.dir, parent);
      continue;
    }
    await mkdir(parent, { recursive: true });
    const real = await realpath(parent);
    if (real !== root && !real.startsWith(root + sep)) {
      throw new GitError('invalid-path', `${path} leads outside ${r.dir} (through a symbolic link)`, { dir: r.dir, path });
    }
    await replaceFile(join(real, basename(target)), content);
  }
}

async function removeEmptyFolders(root: string, folder: string): Promise<void> {
  for (let current = folder; current.startsWith(root + sep); current = dirname(current)) {
    try {
      await rmdir(current);
    } catch {
      return; // not empty (or already gone): stop climbing
    }
  }
}

/**
 * Commits every change of the working tree (additions, edits and deletions, respecting
 * `.gitignore`) on the checked-out branch, like `git add -A && git commit`, and moves the branch
 * with compare-and-swap against the commit it started from (`ref-moved` if another writer
 * moved it meanwhile). Throws `detached-head` when no branch is checked out.
 *
 * The cost follows the change, not the repository: one status walk finds what changed, HEAD's
 * tree is edited at those paths, and only their index entries are rewritten (see
 * fastCommitWorkingTree). `changes`, when given, spares even the walk: the caller vouches that it
 * is what workingTreeChanges returns now (paths it leaves out are committed as they are in HEAD,
 * unless the index stages them differently, and an ignored path it lists is committed).
 * Repositories the fast way does not take (no commit yet, an unresolved merge in the index, ...)
 * are committed the general way, which walks everything.
 * @returns the new commit's oid, or null when nothing changed (no empty commit is made).
 */
export async function commitWorkingTree(
  dir: string,
  options: { message: string; author: Person; timestamp?: number; changes?: readonly WorkingTreeChange[] },
): Promise<string | null> {
  const r = await repo(dir);
  const branch = await git.currentBranch({ fs: r.fs, gitdir: r.gitdir });
  if (typeof branch !== 'string')
    throw new GitError('detached-head', `HEAD is detached in ${r.dir}: check out a branch to commit`, { dir: r.dir });
  const ref = fullRef(branch);
  const tip = await readRef(r, ref);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const fast = await fastCommitWorkingTree(r, ref, tip, {
    message: options.message,
    author: options.author,
    timestamp,
    changes: options.changes,
  });
  if (fast !== FALLBACK) return fast;
  return commitEverything(r, ref, tip, { ...options, timestamp });
}

/** commitWorkingTree through isomorphic-git's add and commit: a full status, and every tree rebuilt from the index. */
async function commitEverything(
  r: Repo,
  ref: string,
  tip: string | null,
  options: { message: string; author: Person; timestamp: number },
): Promise<string | null> {
  await refuseLockedIndex(r);
  const rows = await statusRows(r);
  const toAdd = rows.filter(([, , workdir, stage]) => workdir !== 0 && workdir !== stage).map(([path]) => path);
  const toRemove = rows.filter(([, , workdir, stage]) => workdir === 0 && stage !== 0).map(([path]) => path);
  if (toAdd.length > 0) await git.add({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, filepath: toAdd, cache: r.cache });
  for (const path of toRemove) await git.remove({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, filepath: path, cache: r.cache });

  const person = { ...options.author, timestamp: options.timestamp, timezoneOffset: 0 };
  let oid: string;
  try {
    oid = await git.commit({
      fs: r.fs,
      dir: r.dir,
      gitdir: r.gitdir,
      message: options.message,
      author: person,
      committer: person,
      parent: tip === null ? [] : [tip],
      noUpdateBranch: true,
      disallowEmpty: true,
      cache: r.cache,
    });
  } catch (error) {
    if (error instanceof git.Errors.EmptyCommitError) return null;
    throw error;
  }
  await updateRef(r, ref, tip, oid, commitNote(options.message, tip === null ? 0 : 1, person));
  return oid;
}

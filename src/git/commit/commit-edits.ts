import * as git from 'isomorphic-git';
import type { Person } from './commit-files.js';
import { commitObject } from '../format/commit-object.js';
import { editTree, type TreeBlob } from '../objects/edit-tree.js';
import { writeLooseObjects } from '../objects/loose-objects.js';
import { blobObject, type GitObject } from '../format/object-format.js';
import { checkBranchName, checkPath } from '../format/paths.js';
import { notFoundAs, repo, type Repo } from '../repo.js';
import { fullRef, readRef, updateRef } from '../refs/update-ref.js';
import { commitNote } from '../refs/reflog.js';
import { writeWorkingFiles } from '../working-tree/working-tree.js';
import { workingBlobs } from '../working-tree/working-blobs.js';
import { fastPathsEnabled } from '../fast-paths.js';
import { editIndex, type NewIndexEntry } from '../format/index-edit.js';
import { indexLocked, refuseLockedIndex, withIndexLock } from '../index/index-lock.js';
import { readIndex, unusual } from './fast-commit.js';

export interface CommitEditsOptions {
  /** Branch to move, or a full ref name starting with `refs/`. */
  branch: string;
  /** The first parent, and the commit the branch must point at for the move to happen (null: must not exist). */
  parent: string | null;
  /** Further parents, for a merge commit. */
  mergeParents?: readonly string[];
  /** The commit whose tree the edits apply to. */
  from: string;
  /** Path → new bytes, or null to delete the file. */
  edits: ReadonlyMap<string, Uint8Array | null>;
  message: string;
  author: Person;
  /** Seconds since the epoch, UTC. @default now */
  timestamp?: number;
}

/**
 * Writes a commit whose tree is `from`'s with `edits` applied, then moves `branch` to it with
 * compare-and-swap, as commitFiles does. Only the trees on the edited paths are read and
 * written, so the cost follows the edit, not the size of the repository. An edited file keeps
 * its executable bit (checkoutPaths keeps it on disk too). The index and the working tree are
 * not touched.
 * @returns the new commit's oid.
 */
export async function commitEdits(dir: string, options: CommitEditsOptions): Promise<string> {
  const r = await repo(dir);
  const ref = fullRef(options.branch);
  if (!options.branch.startsWith('refs/')) checkBranchName(options.branch);
  const parents = [...(options.parent === null ? [] : [options.parent]), ...(options.mergeParents ?? [])];
  for (const oid of parents)
    await notFoundAs(r, `parent commit ${oid}`, () => git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache }));
  const base = await notFoundAs(r, `commit ${options.from}`, () =>
    git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid: options.from, cache: r.cache }),
  );
  // Paths are checked before anything is written, so a refused edit set leaves no objects behind.
  const blobs: GitObject[] = [];
  const treeEdits = new Map<string, TreeBlob | null>();
  for (const [path, bytes] of options.edits) {
    const blob = bytes && blobObject(bytes);
    if (blob !== null) blobs.push(blob);
    treeEdits.set(checkPath(path), blob && { mode: '100644', oid: blob.oid, keepExecutable: true });
  }
  writeLooseObjects(r, blobs);
  const tree = await editTree(r, base.commit.tree, treeEdits);
  const person = { ...options.author, timestamp: options.timestamp ?? Math.floor(Date.now() / 1000) };
  const commit = commitObject({ tree, parents, author: person, committer: person, message: options.message });
  writeLooseObjects(r, [commit]);
  await updateRef(r, ref, options.parent ?? (await readRef(r, ref)), commit.oid, commitNote(options.message, parents.length, person));
  return commit.oid;
}

/**
 * Brings the files at `paths` in the working tree and the index to `commit` (the checked-out
 * branch's new commit): each is written (or removed) and staged, nothing else is touched.
 * What `git checkout <commit> -- <paths>` does, for the files a sync just committed.
 */
export async function checkoutPaths(dir: string, commit: string, paths: readonly string[]): Promise<void> {
  const r = await repo(dir);
  const files = new Map<string, Uint8Array | null>();
  for (const path of paths) {
    try {
      files.set(path, (await git.readBlob({ fs: r.fs, gitdir: r.gitdir, oid: commit, filepath: checkPath(path), cache: r.cache })).blob);
    } catch (error) {
      if (!(error instanceof git.Errors.NotFoundError)) throw error;
      files.set(path, null);
    }
  }
  await writeWorkingFiles(dir, files);
  if (await stageFiles(r, commit, [...files.keys()])) return;
  await refuseLockedIndex(r);
  // One staging call for every written file: each call reads and rewrites the whole index.
  const written = [...files].filter(([, bytes]) => bytes !== null).map(([path]) => path);
  if (written.length > 0) await git.add({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, filepath: written, cache: r.cache });
  for (const [path, bytes] of files) {
    if (bytes === null) await git.remove({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, filepath: path, cache: r.cache });
  }
}

/**
 * Stages the files at `paths` as they are in the working tree (`git add` of each, a removal where
 * the file is gone) by rewriting their index entries alone, with the stat data of the files as
 * read, under `index.lock`: the index's other entries, and its cache tree outside those paths,
 * stay as they are, and the cache tree is made whole when the index is `commit`'s tree (see
 * editIndex). False, with nothing written, where isomorphic-git's add must do it: fast paths
 * off, `core.autocrlf`, an index this writer does not take, or a read-only repository. An
 * `index.lock` that exists is refused (`ref-locked`).
 */
async function stageFiles(r: Repo, commit: string, paths: readonly string[]): Promise<boolean> {
  if (!fastPathsEnabled() || paths.length === 0) return false;
  const config = (path: string) => git.getConfig({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, path });
  if ((await config('core.autocrlf')) === 'true') return false;
  const filemode = (await config('core.filemode')) !== false;
  const { tree } = (await git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid: commit, cache: r.cache })).commit;
  const outcome = await withIndexLock(r, async (lock) => {
    const index = await readIndex(r);
    if (index === null || index.parsed.entries.some(unusual)) return false;
    const modes = new Map<string, number>();
    const wanted = new Set(paths);
    for (const entry of index.parsed.entries) if (wanted.has(entry.path)) modes.set(entry.path, entry.mode);
    const working = await workingBlobs(r.dir, wanted, { filemode, indexMode: (path) => modes.get(path) });
    // A file edited since it was written is staged as it is now: its blob must be in the store.
    writeLooseObjects(
      r,
      [...working.values()].flatMap((found) => (found === null ? [] : [found.blob])),
    );
    const edits = new Map<string, NewIndexEntry | null>();
    for (const [path, found] of working) edits.set(path, found && { oid: found.blob.oid, mode: found.mode, stat: found.stat });
    const next = editIndex(index.data, index.parsed, edits, { tree });
    if (next === null) return false;
    lock.replace(next);
    return true;
  });
  // isomorphic-git's add would write around the lock (and not atomically): refused as git refuses.
  if (outcome === 'locked') throw indexLocked(r);
  return outcome === true;
}

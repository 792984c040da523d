import * as git from 'isomorphic-git';
import { notFoundAs, repo, type Repo } from '../repo.js';
import { fullRef, readRef, updateRef } from '../refs/update-ref.js';
import { commitNote } from '../refs/reflog.js';
import { buildTree, type BuiltTree, type FileMap } from '../format/write-tree.js';
import { blobObject, type FileMode, type GitObject } from '../format/object-format.js';
import { editTree, type TreeBlob } from '../objects/edit-tree.js';
import { writeLooseObjects } from '../objects/loose-objects.js';
import { checkBranchName } from '../format/paths.js';
import { GitError } from '../errors.js';
import { assertEmptyWorkingTree, populateWorkingTree } from './fresh-checkout.js';
import { storeObjects } from '../objects/object-store.js';
import { type BlobEntry, readTreeOids } from '../objects/read-tree.js';

export interface Person {
  name: string;
  email: string;
}

export interface CommitFilesOptions {
  /** Branch to move (`main`, `cr/12-intro`), or a full ref name starting with `refs/`. */
  branch: string;
  /**
   * The first parent, and the commit the branch must point at for the move to happen.
   * `null`: a root commit, and the branch must not exist yet. Omitted: the branch's current
   * commit (or none), still checked again when the branch moves.
   */
  parent?: string | null;
  /** Further parents, for a merge commit (for example the remote head merged into local work). */
  mergeParents?: readonly string[];
  /** The whole content of the commit: every file, by path. */
  files: FileMap;
  message: string;
  author: Person;
  /** @default author */
  committer?: Person;
  /** Seconds since the epoch, UTC. @default now */
  timestamp?: number;
  /**
   * Also check the new commit out into an empty working tree, as the end of a `git clone` does:
   * HEAD names `branch`, and the files and the index are written from `files` directly, without
   * reading a blob back. Refused with `dirty-working-tree` (before anything is written) unless
   * the working tree holds nothing but `.git` and has no index. @default false
   */
  checkout?: boolean;
}

/**
 * Writes a commit whose tree is exactly `files` (each with the mode it has in the first parent),
 * then moves `branch` to it with compare-and-swap. Unless `checkout` is set, the index and the working tree are not touched,
 * even when `branch` is checked out (bring the working tree along with checkoutBranch).
 *
 * Throws `ref-moved` when the branch no longer points at `parent` (the commit object is then
 * written but unreferenced, which is harmless), `not-found` for an unknown parent,
 * `invalid-path` for a path that is not a clean relative path, and with `checkout`,
 * `dirty-working-tree` for a working tree that is not empty.
 * @returns the new commit's oid.
 */
export async function commitFiles(dir: string, options: CommitFilesOptions): Promise<string> {
  const r = await repo(dir);
  const ref = fullRef(options.branch);
  if (!options.branch.startsWith('refs/')) checkBranchName(options.branch);
  if (options.checkout === true) {
    if (!ref.startsWith('refs/heads/'))
      throw new GitError('invalid-ref', `cannot check out ${ref} in ${r.dir}: only a branch (refs/heads/...) can be checked out`, {
        dir: r.dir,
        branch: options.branch,
      });
    await assertEmptyWorkingTree(r);
  }
  const expected = options.parent === undefined ? await readRef(r, ref) : options.parent;
  const parents = [...(expected === null ? [] : [expected]), ...(options.mergeParents ?? [])];
  for (const oid of parents) {
    await notFoundAs(r, `parent commit ${oid}`, () => git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache }));
  }
  // A file keeps the mode it has in the first parent (an executable script, a symbolic link),
  // as git keeps it when only the content changes; new files are 100644.
  const kept = expected === null ? new Map<string, BlobEntry>() : await readTreeOids(r, expected);
  let tree = expected !== null && options.checkout !== true ? await editedTree(r, expected, kept, options.files) : undefined;
  let built: BuiltTree | undefined;
  if (tree === undefined) {
    built = buildTree(options.files, (path) => {
      const mode = kept.get(path)?.mode;
      return mode === '100755' || mode === '120000' ? mode : undefined;
    });
    await storeObjects(r, built.objects);
    tree = built.oid;
  }
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const author = { ...options.author, timestamp, timezoneOffset: 0 };
  const committer = { ...(options.committer ?? options.author), timestamp, timezoneOffset: 0 };
  const oid = await git.writeCommit({
    fs: r.fs,
    gitdir: r.gitdir,
    commit: { tree, parent: parents, author, committer, message: options.message },
  });
  await updateRef(r, ref, expected, oid, commitNote(options.message, parents.length, committer));
  if (options.checkout === true) {
    await git.writeRef({ fs: r.fs, gitdir: r.gitdir, ref: 'HEAD', value: ref, symbolic: true, force: true });
    await populateWorkingTree(r, built!.files, tree);
  }
  return oid;
}

/**
 * The tree of `files` as an edit of the parent's: when every file is in the parent (same path,
 * a file there) and the parent has no other file, only the blobs that changed are written and
 * only the trees on their paths rebuilt (editTree), each file keeping the parent's mode: the
 * tree buildTree gives, at the cost of the change (a pull of one page edit in a 5,000-page space
 * wrote 5,000 blobs' worth of trees and checked 5,000 paths). Undefined when files were added or
 * removed: buildTree then builds it whole, with its checks of new paths. (A submodule of the
 * parent, which readTreeOids leaves out, would stay in the edited tree; docsync makes none.)
 */
async function editedTree(r: Repo, parent: string, kept: ReadonlyMap<string, BlobEntry>, files: FileMap): Promise<string | undefined> {
  if (files.size !== kept.size) return undefined;
  const blobs: GitObject[] = [];
  const edits = new Map<string, TreeBlob>();
  for (const [path, content] of files) {
    const was = kept.get(path);
    if (was === undefined) return undefined;
    const blob = blobObject(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    if (blob.oid === was.oid) continue;
    blobs.push(blob);
    edits.set(path, { mode: was.mode as FileMode, oid: blob.oid });
  }
  const { commit } = await git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid: parent, cache: r.cache });
  if (edits.size === 0) return commit.tree;
  writeLooseObjects(r, blobs);
  return editTree(r, commit.tree, edits);
}

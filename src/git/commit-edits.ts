import * as git from 'isomorphic-git';
import type { TreeEntry } from 'isomorphic-git';
import type { Person } from './commit-files.js';
import { checkBranchName, checkPath } from './paths.js';
import { notFoundAs, repo, type Repo } from './repo.js';
import { fullRef, readRef, updateRef } from './update-ref.js';
import { writeWorkingFiles } from './working-tree.js';

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

interface Folder {
  files: Map<string, Uint8Array | null>;
  folders: Map<string, Folder>;
}

function group(edits: ReadonlyMap<string, Uint8Array | null>): Folder {
  const root: Folder = { files: new Map(), folders: new Map() };
  for (const [path, bytes] of edits) {
    const parts = checkPath(path).split('/');
    let folder = root;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = { files: new Map(), folders: new Map() }));
      folder = next;
    }
    folder.files.set(parts.at(-1)!, bytes);
  }
  return root;
}

/** The tree `oid` with `edits` applied; null when it ends up empty. Untouched subtrees are reused as they are. */
async function editTree(r: Repo, oid: string | null, edits: Folder): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  if (oid !== null) for (const entry of (await git.readTree({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache })).tree) entries.set(entry.path, entry);
  for (const [name, bytes] of edits.files) {
    if (bytes === null) entries.delete(name);
    else entries.set(name, { mode: '100644', path: name, type: 'blob', oid: await git.writeBlob({ fs: r.fs, gitdir: r.gitdir, blob: bytes }) });
  }
  for (const [name, sub] of edits.folders) {
    const current = entries.get(name);
    const next = await editTree(r, current?.type === 'tree' ? current.oid : null, sub);
    if (next === null) entries.delete(name);
    else entries.set(name, { mode: '040000', path: name, type: 'tree', oid: next });
  }
  if (entries.size === 0) return null;
  return git.writeTree({ fs: r.fs, gitdir: r.gitdir, tree: [...entries.values()] });
}

/**
 * Writes a commit whose tree is `from`'s with `edits` applied, then moves `branch` to it with
 * compare-and-swap, as commitFiles does. Only the trees on the edited paths are read and
 * written, so the cost follows the edit, not the size of the repository. The index and the
 * working tree are not touched.
 * @returns the new commit's oid.
 */
export async function commitEdits(dir: string, options: CommitEditsOptions): Promise<string> {
  const r = await repo(dir);
  const ref = fullRef(options.branch);
  if (!options.branch.startsWith('refs/')) checkBranchName(options.branch);
  const parents = [...(options.parent === null ? [] : [options.parent]), ...(options.mergeParents ?? [])];
  for (const oid of parents) await notFoundAs(r, `parent commit ${oid}`, () => git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache }));
  const base = await notFoundAs(r, `commit ${options.from}`, () => git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid: options.from, cache: r.cache }));
  const tree = (await editTree(r, base.commit.tree, group(options.edits))) ?? (await git.writeTree({ fs: r.fs, gitdir: r.gitdir, tree: [] }));
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const person = { ...options.author, timestamp, timezoneOffset: 0 };
  const oid = await git.writeCommit({
    fs: r.fs, gitdir: r.gitdir,
    commit: { tree, parent: parents, author: person, committer: person, message: options.message },
  });
  await updateRef(r, ref, options.parent ?? (await readRef(r, ref)), oid);
  return oid;
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
  // One staging call for every written file: each call reads and rewrites the whole index.
  const written = [...files].filter(([, bytes]) => bytes !== null).map(([path]) => path);
  if (written.length > 0) await git.add({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, filepath: written, cache: r.cache });
  for (const [path, bytes] of files) {
    if (bytes === null) await git.remove({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, filepath: path, cache: r.cache });
  }
}

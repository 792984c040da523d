import * as git from 'isomorphic-git';
import { parseCacheTree } from '../format/cache-tree.js';
import type { StoredIndexEntry } from '../format/index-read.js';
import { folderOid, indexFolders, type IndexFolder } from '../format/index-folders.js';
import type { Repo } from '../repo.js';
import { readCommitTree, readTreeEntries } from '../objects/fast-read.js';

/** The commit HEAD names; null on an unborn branch (no commit yet). */
export async function headCommit(r: Repo): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: r.fs, gitdir: r.gitdir, ref: 'HEAD' });
  } catch (error) {
    if (error instanceof git.Errors.NotFoundError) return null;
    throw error;
  }
}

function addAll(found: Map<string, string>, folder: IndexFolder, prefix: string): void {
  for (const [name, entry] of folder.files) found.set(prefix + name, entry.oid);
  for (const [name, sub] of folder.folders) addAll(found, sub, `${prefix}${name}/`);
}

/**
 * The blobs (files and symbolic links) of HEAD's commit by path, with their oids, for a working
 * tree whose index holds `entries`. Where a folder of HEAD has the very tree the index's entries
 * would make (same oid), its blobs are the index's and its tree is not read: after a commit,
 * only the root tree is, as git's cache-tree spares `git status` too. With the index's cache tree
 * (`cacheTree`, the `TREE` extension's data), the oids of folders it holds valid are taken from
 * it: only folders whose entries changed since it was written are hashed.
 * @returns null when HEAD names no commit yet (an unborn branch) or its tree holds a submodule.
 */
export async function headBlobs(r: Repo, entries: readonly StoredIndexEntry[], cacheTree?: Buffer): Promise<Map<string, string> | null> {
  const commit = await headCommit(r);
  if (commit === null) return null;
  const found = new Map<string, string>();
  const visit = async (oid: string, prefix: string, index: IndexFolder | undefined): Promise<boolean> => {
    const tree = await readTreeEntries(r, oid);
    for (const entry of tree) {
      const path = prefix + entry.path;
      if (entry.type === 'commit') return false;
      if (entry.type === 'blob') {
        found.set(path, entry.oid);
        continue;
      }
      const same = index?.folders.get(entry.path);
      if (same !== undefined && folderOid(same) === entry.oid) addAll(found, same, `${path}/`);
      else if (!(await visit(entry.oid, `${path}/`, same))) return false;
    }
    return true;
  };
  // An intent-to-add entry is in no tree git writes: a cache tree over one is not the entries' tree.
  const cached = cacheTree === undefined || entries.some((entry) => entry.intentToAdd) ? null : parseCacheTree(cacheTree);
  const root = indexFolders(entries, cached);
  const tree = await readCommitTree(r, commit);
  if (tree === folderOid(root)) {
    addAll(found, root, '');
    return found;
  }
  return (await visit(tree, '', root)) ? found : null;
}

import * as git from 'isomorphic-git';
import { commitTree, readTreeItems } from './loose-objects.js';
import { FOLDER_MODE, type TreeItem } from './object-format.js';
import type { Repo } from './repo.js';

/** What HEAD's commit holds at some paths, under them, and on the way to them. */
export interface HeadAt {
  /** Blob oids (files and symbolic links) by path: at or under the paths, and at their ancestors. */
  blobs: Map<string, string>;
  /** HEAD's folders at or under the paths, and among their ancestors. */
  folders: Set<string>;
}

const SUBMODULE = '160000';

/**
 * HEAD's blobs at `paths` and under those that are folders in HEAD, reading only the trees on
 * the way to each path and under it (each tree once), not HEAD's whole tree as headBlobs may.
 * A file of HEAD where a path has an ancestor (a file since replaced by a folder) is recorded too.
 * @returns null when HEAD names no commit yet, or when a tree read holds a submodule (the cases
 * where headBlobs gives null; a submodule in a tree not read here goes unseen, and cannot
 * change what HEAD holds at these paths).
 */
export async function headBlobsAt(r: Repo, paths: readonly string[]): Promise<HeadAt | null> {
  let commit: string;
  try {
    commit = await git.resolveRef({ fs: r.fs, gitdir: r.gitdir, ref: 'HEAD' });
  } catch (error) {
    if (error instanceof git.Errors.NotFoundError) return null;
    throw error;
  }
  const trees = new Map<string, Promise<TreeItem[]>>();
  const read = async (oid: string): Promise<TreeItem[] | null> => {
    let items = trees.get(oid);
    if (items === undefined) trees.set(oid, (items = readTreeItems(r, oid)));
    const found = await items;
    return found.some((item) => item.mode === SUBMODULE) ? null : found;
  };
  const found: HeadAt = { blobs: new Map(), folders: new Set() };
  const addAll = async (oid: string, folder: string): Promise<boolean> => {
    found.folders.add(folder);
    const items = await read(oid);
    if (items === null) return false;
    for (const item of items) {
      const path = `${folder}/${item.name}`;
      if (item.mode !== FOLDER_MODE) found.blobs.set(path, item.oid);
      else if (!(await addAll(item.oid, path))) return false;
    }
    return true;
  };

  const root = await commitTree(r, commit);
  for (const path of paths) {
    const names = path.split('/');
    let tree = root;
    for (let depth = 1; depth <= names.length; depth += 1) {
      const items = await read(tree);
      if (items === null) return null;
      const item = items.find((candidate) => candidate.name === names[depth - 1]);
      if (item === undefined) break;
      const at = names.slice(0, depth).join('/');
      if (item.mode !== FOLDER_MODE) {
        found.blobs.set(at, item.oid);
        break;
      }
      if (depth === names.length) {
        if (!(await addAll(item.oid, at))) return null;
        break;
      }
      found.folders.add(at);
      tree = item.oid;
    }
  }
  return found;
}

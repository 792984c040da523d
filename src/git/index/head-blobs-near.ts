import { headCommit } from './head-blobs.js';
import type { StoredIndexEntry } from '../format/index-read.js';
import { commitTree, readTreeItems } from '../objects/tree-and-commit-reads.js';
import { FOLDER_MODE, type TreeItem } from '../format/object-format.js';
import type { PathScope } from '../format/path-scope.js';
import type { Repo } from '../repo.js';
import { stagedPaths } from './staged-paths.js';

/** Blobs and folders near a PathScope (covered, or on the way to its paths). */
export interface Near {
  /** Blob oids (files and symbolic links) by path. */
  blobs: Map<string, string>;
  folders: Set<string>;
}

const SUBMODULE = '160000';

/**
 * HEAD's blobs and folders near `scope`, for a working tree whose index holds `entries`, of which
 * `index` are those near the scope. Where nothing near the scope is staged (HEAD and the index
 * differ at no path near it, nor under a folder near it), HEAD holds there what the index does:
 * that is found by hashing the index into trees (as headBlobs does), which reads no tree of
 * HEAD when nothing is staged at all. Otherwise the trees on the way to the paths and under
 * them are read (see readNear).
 * @returns null when HEAD names no commit yet, or a tree of HEAD that differs from the index's
 * holds a submodule (where headBlobs gives null). `cacheTree`: the index's, see stagedPaths.
 */
export async function headBlobsNear(
  r: Repo,
  scope: PathScope,
  entries: readonly StoredIndexEntry[],
  index: Near,
  cacheTree?: Buffer,
): Promise<Near | null> {
  const commit = await headCommit(r);
  if (commit === null) return null;
  const tree = await commitTree(r, commit);
  const staged = await stagedPaths(r, tree, entries, cacheTree);
  if (staged === null) return null;
  if (!staged.some((path) => scope.near(path) || scope.foldersNear(path).length > 0)) return index;
  return readNear(r, tree, scope.roots);
}

/**
 * HEAD's blobs at `paths` and under those that are folders in HEAD (`tree` being HEAD's), reading
 * only the trees on the way to each path and under it, each once. A file of HEAD where a path
 * has an ancestor (a file since replaced by a folder) is recorded too.
 * @returns null when a tree read holds a submodule.
 */
async function readNear(r: Repo, root: string, paths: readonly string[]): Promise<Near | null> {
  const trees = new Map<string, Promise<TreeItem[]>>();
  const read = async (oid: string): Promise<TreeItem[] | null> => {
    let items = trees.get(oid);
    if (items === undefined) trees.set(oid, (items = readTreeItems(r, oid)));
    const found = await items;
    return found.some((item) => item.mode === SUBMODULE) ? null : found;
  };
  const found: Near = { blobs: new Map(), folders: new Set() };
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

import * as git from 'isomorphic-git';
import type { StoredIndexEntry } from '../format/index-read.js';
import { FOLDER_MODE, objectOid, sortTreeItems, treeContent, type TreeEntryText } from '../format/object-format.js';
import type { Repo } from '../repo.js';

/** The index seen as folders, each with the oid its tree object would have (what `git write-tree` writes). */
interface Folder {
  files: Map<string, StoredIndexEntry>;
  folders: Map<string, Folder>;
  oid: string;
}

function foldersOf(entries: readonly StoredIndexEntry[]): Folder {
  const root: Folder = { files: new Map(), folders: new Map(), oid: '' };
  for (const entry of entries) {
    const parts = entry.path.split('/');
    let folder = root;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = { files: new Map(), folders: new Map(), oid: '' }));
      folder = next;
    }
    folder.files.set(parts.at(-1)!, entry);
  }
  hashFolder(root);
  return root;
}

/** The commit HEAD names; null on an unborn branch (no commit yet). */
export async function headCommit(r: Repo): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: r.fs, gitdir: r.gitdir, ref: 'HEAD' });
  } catch (error) {
    if (error instanceof git.Errors.NotFoundError) return null;
    throw error;
  }
}

/**
 * Hashes `folder`'s tree object and those of its subfolders. Entries are in git's tree order:
 * byte order of the UTF-8 names, a folder's name counting as if it ended in `/`.
 */
function hashFolder(folder: Folder): void {
  const items: TreeEntryText[] = [];
  for (const [name, sub] of folder.folders) {
    hashFolder(sub);
    items.push({ name, mode: FOLDER_MODE, oid: sub.oid });
  }
  for (const [name, entry] of folder.files) items.push({ name, mode: entry.mode.toString(8), oid: entry.oid });
  folder.oid = objectOid('tree', treeContent(sortTreeItems(items)));
}

function addAll(found: Map<string, string>, folder: Folder, prefix: string): void {
  for (const [name, entry] of folder.files) found.set(prefix + name, entry.oid);
  for (const [name, sub] of folder.folders) addAll(found, sub, `${prefix}${name}/`);
}

/**
 * The blobs (files and symbolic links) of HEAD's commit by path, with their oids, for a working
 * tree whose index holds `entries`. Where a folder of HEAD has the very tree the index's entries
 * would make (same oid), its blobs are the index's and its tree is not read: after a commit,
 * only the root tree is, as git's cache-tree spares `git status` too.
 * @returns null when HEAD names no commit yet (an unborn branch) or its tree holds a submodule.
 */
export async function headBlobs(r: Repo, entries: readonly StoredIndexEntry[]): Promise<Map<string, string> | null> {
  const commit = await headCommit(r);
  if (commit === null) return null;
  const found = new Map<string, string>();
  const visit = async (oid: string, prefix: string, index: Folder | undefined): Promise<boolean> => {
    const { tree } = await git.readTree({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache });
    for (const entry of tree) {
      const path = prefix + entry.path;
      if (entry.type === 'commit') return false;
      if (entry.type === 'blob') {
        found.set(path, entry.oid);
        continue;
      }
      const same = index?.folders.get(entry.path);
      if (same?.oid === entry.oid) addAll(found, same, `${path}/`);
      else if (!(await visit(entry.oid, `${path}/`, same))) return false;
    }
    return true;
  };
  const root = foldersOf(entries);
  const { tree } = (await git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid: commit, cache: r.cache })).commit;
  if (tree === root.oid) {
    addAll(found, root, '');
    return found;
  }
  return (await visit(tree, '', root)) ? found : null;
}

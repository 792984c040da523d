import type { CacheTree } from './cache-tree.js';
import type { StoredIndexEntry } from './index-read.js';
import { FOLDER_MODE, objectOid, sortTreeItems, treeContent, type TreeEntryText } from './object-format.js';

/** What a folder's tree takes of an index entry. */
export type FolderEntry = Pick<StoredIndexEntry, 'path' | 'oid' | 'mode'>;

/** The index seen as folders, each with the oid its tree object would have (what `git write-tree` writes). */
export interface IndexFolder {
  files: Map<string, FolderEntry>;
  folders: Map<string, IndexFolder>;
  /** Index entries under it, at any depth. */
  count: number;
  /** Its tree's oid: from a valid cache tree node, or hashed when first asked (see folderOid). */
  oid?: string;
  /** The cache tree's node for it, when the index has one there. */
  cached?: CacheTree;
}

const newFolder = (): IndexFolder => ({ files: new Map(), folders: new Map(), count: 0 });

/**
 * The index's entries as folders, with `cacheTree` (the index's, parsed) attached to the folders
 * it names. Pure: no I/O.
 */
export function indexFolders<E extends FolderEntry>(entries: readonly E[], cacheTree: CacheTree | null): IndexFolder {
  const root = newFolder();
  for (const entry of entries) {
    const parts = entry.path.split('/');
    let folder = root;
    folder.count += 1;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = newFolder()));
      folder = next;
      folder.count += 1;
    }
    folder.files.set(parts.at(-1)!, entry);
  }
  if (cacheTree !== null) attach(root, cacheTree);
  return root;
}

function attach(folder: IndexFolder, node: CacheTree): void {
  folder.cached = node;
  for (const [name, sub] of folder.folders) {
    const child = node.subtrees.get(name);
    if (child) attach(sub, child);
  }
}

/**
 * The oid of `folder`'s tree object. A valid cache tree node that covers as many entries as the
 * folder has gives it without hashing (git trusts it the same way); otherwise the tree is hashed
 * from its entries, in git's tree order (byte order of the UTF-8 names, a folder's name counting
 * as if it ended in `/`), its subfolders asked the same way.
 */
export function folderOid(folder: IndexFolder): string {
  if (folder.oid !== undefined) return folder.oid;
  const cached = folder.cached;
  if (cached?.oid !== undefined && cached.entryCount === folder.count) return (folder.oid = cached.oid);
  const items: TreeEntryText[] = [];
  for (const [name, sub] of folder.folders) items.push({ name, mode: FOLDER_MODE, oid: folderOid(sub) });
  for (const [name, entry] of folder.files) items.push({ name, mode: entry.mode.toString(8), oid: entry.oid });
  return (folder.oid = objectOid('tree', treeContent(sortTreeItems(items))));
}

/**
 * The cache tree of `folder` with every node valid: oids as folderOid gives them (hashing only
 * the folders the attached cache tree did not hold valid). Pure: no I/O.
 */
export function cacheTreeOf(folder: IndexFolder): CacheTree {
  const subtrees = new Map<string, CacheTree>();
  for (const [name, sub] of folder.folders) subtrees.set(name, cacheTreeOf(sub));
  return { entryCount: folder.count, oid: folderOid(folder), subtrees };
}

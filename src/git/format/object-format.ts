import { createHash } from 'node:crypto';
import { comparePaths } from './paths.js';

/** The object types docsync writes itself. */
export type ObjectType = 'blob' | 'tree' | 'commit';

/** An object ready to store, or as read: its oid is git's, `content` is without the `<type> <size>\0` header. */
export interface GitObject {
  type: ObjectType;
  oid: string;
  content: Uint8Array;
}

/** A blob's mode in a tree: a file, an executable file, or a symbolic link. */
export type FileMode = '100644' | '100755' | '120000';

/**
 * A tree entry's mode as git writes it: a blob's, a folder (`40000`, without the leading zero
 * isomorphic-git shows) or a submodule's commit (`160000`).
 */
export type TreeMode = FileMode | typeof FOLDER_MODE | '160000';

export const FOLDER_MODE = '40000';

export interface TreeItem {
  mode: TreeMode;
  name: string;
  oid: string;
}

/** git's object id: the sha1 of `<type> <size>\0` followed by the content. */
export function objectOid(type: ObjectType, content: Uint8Array): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** The object of `type` holding `content`, with its oid. */
export function gitObject(type: ObjectType, content: Uint8Array): GitObject {
  return { type, oid: objectOid(type, content), content };
}

/** A blob for `content`. */
export function blobObject(content: Uint8Array): GitObject {
  return gitObject('blob', content);
}

/** A tree entry as the encoder takes it: the mode as git writes it (octal, no leading zero). */
export interface TreeEntryText {
  mode: string;
  name: string;
  oid: string;
}

/**
 * `items` in git's tree order: byte order of the UTF-8 names, where a folder's name counts as if
 * it ended in `/` (so `a-b/` < `a.md` < `a/` < `a0`). Writing the order ourselves is what makes
 * the oid the one `git write-tree` gives.
 */
export function sortTreeItems<T extends TreeEntryText>(items: Iterable<T>): T[] {
  const keyed = [...items].map((item) => ({ item, key: item.mode === FOLDER_MODE ? `${item.name}/` : item.name }));
  keyed.sort((a, b) => comparePaths(a.key, b.key));
  return keyed.map(({ item }) => item);
}

/**
 * The one encoder of tree objects (what `treeObject`, the HEAD tree hashing and the index's
 * would-be trees share): `<mode> <name>\0<20 bytes of oid>` per item, `items` already in tree order.
 */
export function treeContent(items: readonly TreeEntryText[]): Buffer {
  let size = 0;
  for (const item of items) size += item.mode.length + 1 + Buffer.byteLength(item.name) + 1 + 20;
  const content = Buffer.allocUnsafe(size);
  let at = 0;
  for (const item of items) {
    at += content.write(item.mode, at, 'latin1');
    content[at++] = 0x20;
    at += content.write(item.name, at, 'utf8');
    content[at++] = 0;
    at += content.write(item.oid, at, 'hex');
  }
  return content;
}

/** A tree object holding `items`, in git's tree order. */
export function treeObject(items: Iterable<TreeItem>): GitObject {
  return gitObject('tree', treeContent(sortTreeItems(items)));
}

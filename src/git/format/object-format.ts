import { createHash } from 'node:crypto';

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

/**
 * A tree object holding `items`, in git's tree order: byte order of the UTF-8 names, where a
 * folder's name counts as if it ended in `/` (so `a-b/` < `a.md` < `a/` < `a0`). Writing the
 * order ourselves is what makes the oid the one `git write-tree` gives.
 */
export function treeObject(items: Iterable<TreeItem>): GitObject {
  const keyed = [...items].map((item) => {
    const name = Buffer.from(item.name, 'utf8');
    return { item, name, key: item.mode === FOLDER_MODE ? Buffer.concat([name, SLASH]) : name };
  });
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  const parts: Buffer[] = [];
  for (const { item, name } of keyed) parts.push(Buffer.from(`${item.mode} `), name, NUL, Buffer.from(item.oid, 'hex'));
  return gitObject('tree', Buffer.concat(parts));
}

const SLASH = Buffer.from('/');
const NUL = Buffer.alloc(1);

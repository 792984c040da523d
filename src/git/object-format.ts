import { createHash } from 'node:crypto';

/** The object types docsync writes itself (commits go through isomorphic-git). */
export type ObjectType = 'blob' | 'tree';

/** An object ready to store: its oid is git's, `content` is without the `<type> <size>\0` header. */
export interface GitObject {
  type: ObjectType;
  oid: string;
  content: Uint8Array;
}

export interface TreeItem {
  /** A file (`100644`) or a folder (`40000`, written without a leading zero, as git writes it). */
  mode: '100644' | '40000';
  name: string;
  oid: string;
}

/** git's object id: the sha1 of `<type> <size>\0` followed by the content. */
export function objectOid(type: ObjectType, content: Uint8Array): string {
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** A blob for `content`. */
export function blobObject(content: Uint8Array): GitObject {
  return { type: 'blob', oid: objectOid('blob', content), content };
}

/**
 * A tree object holding `items`, in git's tree order: byte order of the UTF-8 names, where a
 * folder's name counts as if it ended in `/` (so `a-b/` < `a.md` < `a/` < `a0`). Writing the
 * order ourselves is what makes the oid the one `git write-tree` gives.
 */
export function treeObject(items: readonly TreeItem[]): GitObject {
  const keyed = items.map((item) => {
    const name = Buffer.from(item.name, 'utf8');
    return { item, name, key: item.mode === '40000' ? Buffer.concat([name, SLASH]) : name };
  });
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  const parts: Buffer[] = [];
  for (const { item, name } of keyed) parts.push(Buffer.from(`${item.mode} `), name, NUL, Buffer.from(item.oid, 'hex'));
  const content = Buffer.concat(parts);
  return { type: 'tree', oid: objectOid('tree', content), content };
}

const SLASH = Buffer.from('/');
const NUL = Buffer.alloc(1);

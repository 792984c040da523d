import { createHash } from 'node:crypto';
import * as git from 'isomorphic-git';
import type { StoredIndexEntry } from '../format/index-read.js';
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
  const items: { key: string; name: string; mode: string; oid: string }[] = [];
  for (const [name, sub] of folder.folders) {
    hashFolder(sub);
    items.push({ key: `${name}/`, name, mode: '40000', oid: sub.oid });
  }
  for (const [name, entry] of folder.files) items.push({ key: name, name, mode: entry.mode.toString(8), oid: entry.oid });
  items.sort((a, b) => compareUtf8(a.key, b.key));
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
  folder.oid = createHash('sha1').update(`tree ${size}\0`).update(content).digest('hex');
}

/**
 * Byte order of the UTF-8 encodings, without encoding: that is code point order, which differs
 * from JavaScript's UTF-16 order only where a surrogate (a character beyond U+FFFF) meets
 * U+E000 to U+FFFF, so surrogates are moved above those.
 */
function compareUtf8(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

const codePointRank = (unit: number) => (unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit);

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

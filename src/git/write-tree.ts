import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import * as git from 'isomorphic-git';
import type { TreeEntry } from 'isomorphic-git';
import { GitError } from './errors.js';
import { checkPath } from './paths.js';
import type { Repo } from './repo.js';

/** File contents by repository path; strings are written as UTF-8. */
export type FileMap = ReadonlyMap<string, Uint8Array | string>;

interface Folder {
  files: Map<string, Uint8Array>;
  folders: Map<string, Folder>;
}

/** Blobs written at once: enough to overlap deflate and disk, few enough to bound memory. */
const PARALLEL_BLOBS = 32;

/**
 * Writes blobs and nested trees for `files` and returns the root tree's oid, without touching
 * the index or the working tree.
 *
 * Canonical: every file has mode 100644 and isomorphic-git sorts entries in git's tree order,
 * so one file map always gives one tree oid (the one `git write-tree` would give).
 */
export async function writeFileTree(r: Repo, files: FileMap): Promise<string> {
  return writeFolder(r, foldersOf(files));
}

function foldersOf(files: FileMap): Folder {
  const root: Folder = { files: new Map(), folders: new Map() };
  for (const [path, content] of files) {
    const segments = checkPath(path).split('/');
    const name = segments.pop()!;
    let folder = root;
    for (const [i, segment] of segments.entries()) {
      if (folder.files.has(segment)) throw clash(segments.slice(0, i + 1).join('/'), path);
      let next = folder.folders.get(segment);
      if (!next) folder.folders.set(segment, (next = { files: new Map(), folders: new Map() }));
      folder = next;
    }
    if (folder.folders.has(name)) throw clash(path, `${path}/...`);
    folder.files.set(name, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
  }
  return root;
}

function clash(file: string, other: string): GitError {
  return new GitError('invalid-path', `${file} cannot be both a file and a folder (${other})`, { path: file });
}

async function writeFolder(r: Repo, folder: Folder): Promise<string> {
  const entries: TreeEntry[] = [];
  const blobs = [...folder.files];
  for (let i = 0; i < blobs.length; i += PARALLEL_BLOBS) {
    const chunk = blobs.slice(i, i + PARALLEL_BLOBS);
    const oids = await Promise.all(chunk.map(([, blob]) => writeBlob(r, blob)));
    chunk.forEach(([path], j) => entries.push({ mode: '100644', path, oid: oids[j]!, type: 'blob' }));
  }
  for (const [path, child] of folder.folders) {
    entries.push({ mode: '040000', path, oid: await writeFolder(r, child), type: 'tree' });
  }
  return git.writeTree({ fs: r.fs, gitdir: r.gitdir, tree: entries });
}

/**
 * isomorphic-git's writeBlob, with hashing and compression done by node's native crypto and
 * zlib: about three times faster on a clone of thousands of pages (isomorphic-git compresses
 * through web streams). isomorphic-git still stores the object, so the repository layout is
 * its own; the oid is git's blob oid either way (sha1 of "blob <size>\0" and the bytes).
 */
async function writeBlob(r: Repo, blob: Uint8Array): Promise<string> {
  const wrapped = Buffer.concat([Buffer.from(`blob ${blob.length}\0`), blob]);
  const oid = createHash('sha1').update(wrapped).digest('hex');
  // Most blobs of a pull's commit are already stored: skip compressing those (loose objects
  // only; a blob that exists only in a pack is written again loose, which git tolerates).
  if (await access(join(r.gitdir, 'objects', oid.slice(0, 2), oid.slice(2))).then(() => true, () => false)) return oid;
  await git.writeObject({ fs: r.fs, gitdir: r.gitdir, type: 'blob', object: deflateSync(wrapped), format: 'deflated', oid });
  return oid;
}

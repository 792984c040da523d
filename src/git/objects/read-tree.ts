import * as git from 'isomorphic-git';
import { GitError } from '../errors.js';
import { checkPath } from '../format/paths.js';
import { notFoundAs, type Repo, repo } from '../repo.js';
import { readBlobAtPath, readBlobObject, readTreeEntries } from './fast-read.js';

export interface BlobEntry {
  oid: string;
  /** `100644`, `100755` (executable) or `120000` (symbolic link; the blob is the link target). */
  mode: string;
}

const PARALLEL_READS = 32;

/**
 * Every blob under a commit or tree, by full path, in git's tree order. Submodule entries
 * (mode 160000, a commit of another repository) are left out: they have no content here.
 */
export async function readTreeOids(r: Repo, oid: string): Promise<Map<string, BlobEntry>> {
  const found = new Map<string, BlobEntry>();
  const visit = async (treeOid: string, prefix: string): Promise<void> => {
    const tree = await notFoundAs(r, `tree of ${treeOid}`, () => readTreeEntries(r, treeOid));
    for (const entry of tree) {
      const path = prefix + entry.path;
      if (entry.type === 'tree') await visit(entry.oid, `${path}/`);
      else if (entry.type === 'blob') found.set(path, { oid: entry.oid, mode: entry.mode });
    }
  };
  await visit(oid, '');
  return found;
}

export async function readBlobBytes(r: Repo, oid: string): Promise<Uint8Array> {
  return notFoundAs(r, `blob ${oid}`, () => readBlobObject(r, oid));
}

/** One blob's bytes by oid (a TreeChange's `oldOid`/`newOid`). Throws `not-found` naming it. */
export async function readBlob(dir: string, oid: string): Promise<Uint8Array> {
  return readBlobBytes(await repo(dir), oid);
}

/**
 * Every file of a commit, by path, read from the object store (packed or loose) without
 * touching the working tree. Throws `not-found` when the commit does not exist.
 */
export async function readTreeFiles(dir: string, commitOid: string): Promise<Map<string, Uint8Array>> {
  const r = await repo(dir);
  const entries = [...(await readTreeOids(r, commitOid))];
  const files = new Map<string, Uint8Array>();
  for (let i = 0; i < entries.length; i += PARALLEL_READS) {
    const chunk = entries.slice(i, i + PARALLEL_READS);
    const blobs = await Promise.all(chunk.map(([, entry]) => readBlobBytes(r, entry.oid)));
    chunk.forEach(([path], j) => files.set(path, blobs[j]!));
  }
  return files;
}

/** One file of a commit. Throws `not-found` naming the path and commit when it is not there. */
export async function readFileAt(dir: string, commitOid: string, path: string): Promise<Uint8Array> {
  const r = await repo(dir);
  checkPath(path);
  try {
    const found = await readBlobAtPath(r, commitOid, path);
    if (found !== undefined) return found;
    const { blob } = await git.readBlob({ fs: r.fs, gitdir: r.gitdir, oid: commitOid, filepath: path, cache: r.cache });
    return blob;
  } catch (error) {
    if (error instanceof git.Errors.NotFoundError || error instanceof git.Errors.ObjectTypeError) {
      throw new GitError(
        'not-found',
        `${path} not found at commit ${commitOid} in ${r.dir}`,
        { dir: r.dir, path, commit: commitOid },
        { cause: error },
      );
    }
    throw error;
  }
}

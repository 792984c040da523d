import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, deflateSync, inflateSync } from 'node:zlib';
import * as git from 'isomorphic-git';
import type { GitObject, TreeItem, TreeMode } from '../format/object-format.js';
import type { Repo } from '../repo.js';
import { readObject } from './read-object.js';

/** Below this size an object is compressed on the main thread: a zlib call on the threadpool costs more. */
const SYNC_DEFLATE_MAX = 64 << 10;

const deflateAsync = promisify(deflate);

/** A loose object's file: `objects/<2 hex>/<38 hex>`. */
const loosePath = (gitdir: string, oid: string) => join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));

/** What a loose object's file holds, before compression: `<type> <size>\0<content>`. */
const wrapped = (object: GitObject) => Buffer.concat([Buffer.from(`${object.type} ${object.content.length}\0`), object.content]);

/** Puts `data` at `path` complete or not at all: written under a temporary name, then renamed. */
function place(path: string, data: Buffer): void {
  mkdirSync(join(path, '..'), { recursive: true });
  const temporary = join(path, '..', `tmp_obj_${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(temporary, data, { mode: 0o444 });
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Writes each object that is not stored loose yet as a loose object. One already in a pack is
 * written loose as well, which git allows: looking that up would mean reading every pack index,
 * the cost of the repository rather than of the few objects a save writes. Synchronous calls:
 * for a handful of small objects they cost less than trips to the threadpool.
 */
export function writeLooseObjects(r: Repo, objects: Iterable<GitObject>): void {
  for (const object of objects) {
    const path = loosePath(r.gitdir, object.oid);
    if (!existsSync(path)) place(path, deflateSync(wrapped(object)));
  }
}

/**
 * Writes `object` loose, whether or not it is stored already (the caller has looked), a large
 * one compressed on the threadpool so that many can be compressed at once.
 */
export async function writeLooseObject(gitdir: string, object: GitObject): Promise<void> {
  const data = wrapped(object);
  place(loosePath(gitdir, object.oid), data.length <= SYNC_DEFLATE_MAX ? deflateSync(data) : await deflateAsync(data));
}

/** A loose object's type and content; null when it is not stored loose (packed, or absent). */
export function readLoose(gitdir: string, oid: string): { type: string; content: Buffer } | null {
  let data: Buffer;
  try {
    data = inflateSync(readFileSync(loosePath(gitdir, oid)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const nul = data.indexOf(0);
  return { type: data.toString('latin1', 0, data.indexOf(0x20)), content: data.subarray(nul + 1) };
}

/**
 * The entries of tree `oid`, read from its loose object or its pack, or through isomorphic-git
 * when neither holds it, for its error (isomorphic-git writes the folder mode as `040000`; here
 * it is `40000`, as stored). A mode outside TreeMode (old git's `100664`, which fsck tolerates)
 * is kept as read.
 */
export async function readTreeItems(r: Repo, oid: string): Promise<TreeItem[]> {
  const loose = readLoose(r.gitdir, oid) ?? (await readObject(r.gitdir, oid));
  if (loose === null) {
    const { tree } = await git.readTree({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache });
    return tree.map((entry) => ({ mode: entry.mode.replace(/^0+/, '') as TreeMode, name: entry.path, oid: entry.oid }));
  }
  if (loose.type !== 'tree') throw new Error(`object ${oid} in ${r.dir} is a ${loose.type}, not a tree`);
  const items: TreeItem[] = [];
  const { content } = loose;
  for (let at = 0; at < content.length;) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space);
    items.push({
      mode: content.toString('latin1', at, space) as TreeMode,
      name: content.toString('utf8', space + 1, nul),
      oid: content.toString('hex', nul + 1, nul + 21),
    });
    at = nul + 21;
  }
  return items;
}

/** The tree of commit `oid`, from its loose object or its pack, or through isomorphic-git when neither holds it. */
export async function commitTree(r: Repo, oid: string): Promise<string> {
  const loose = readLoose(r.gitdir, oid) ?? (await readObject(r.gitdir, oid));
  if (loose === null) return (await git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache })).commit.tree;
  const match = /^tree ([0-9a-f]{40})\n/.exec(loose.content.toString('latin1', 0, 46));
  if (loose.type !== 'commit' || match === null) throw new Error(`object ${oid} in ${r.dir} is not a commit`);
  return match[1]!;
}

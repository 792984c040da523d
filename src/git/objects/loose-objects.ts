import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflate, deflateSync, inflateSync } from 'node:zlib';
import type { GitObject } from '../format/object-format.js';
import type { Repo } from '../repo.js';

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

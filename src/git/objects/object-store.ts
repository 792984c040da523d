import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeLooseObject } from './loose-objects.js';
import type { GitObject } from '../format/object-format.js';
import { packedOids, writePack } from './pack-file.js';
import type { Repo } from '../repo.js';

/**
 * From this many new objects on, they are written as one pack instead of loose files, as git
 * does for a fetch (`transfer.unpackLimit`, 100): a clone of 5,000 pages then creates two files
 * instead of 5,000 objects in 256 folders.
 */
export const UNPACK_LIMIT = 100;

/**
 * Objects larger than this stay loose even then: isomorphic-git reads a whole pack into memory to
 * read one of its objects, and a page should not cost reading every image of the space.
 */
const PACK_OBJECT_MAX = 1 << 20;

/** Content bytes per pack, far below the 2 GiB a pack with 32-bit offsets can hold. */
const PACK_BYTES_MAX = 256 << 20;

/** Loose objects written at once. */
const PARALLEL_LOOSE = 16;

/**
 * Stores the objects the repository does not have yet (loose or in a pack): as a pack when there
 * are at least UNPACK_LIMIT of them, loose otherwise. Each file appears complete or not at all
 * (written under a temporary name, then renamed).
 */
export async function storeObjects(r: Repo, objects: Iterable<GitObject>): Promise<void> {
  const unique = new Map<string, GitObject>();
  for (const object of objects) unique.set(object.oid, object);
  const missing = await absent(r.gitdir, [...unique.values()]);
  const packable = missing.filter((object) => object.content.length <= PACK_OBJECT_MAX);
  const packed = packable.length >= UNPACK_LIMIT ? new Set(packable) : new Set<GitObject>();
  for (const group of packGroups([...packed])) await writePack(r.gitdir, group);
  const loose = missing.filter((object) => !packed.has(object));
  for (let i = 0; i < loose.length; i += PARALLEL_LOOSE) {
    await Promise.all(loose.slice(i, i + PARALLEL_LOOSE).map((object) => writeLooseObject(r.gitdir, object)));
  }
}

/**
 * The objects stored neither in a pack nor loose. Loose objects are looked up by listing their
 * fan-out folders (at most 256 listings, none in a new repository) rather than one `stat` each.
 */
async function absent(gitdir: string, objects: GitObject[]): Promise<GitObject[]> {
  const packed = await packedOids(gitdir);
  const candidates = objects.filter((object) => !packed.has(object.oid));
  const objectsDir = join(gitdir, 'objects');
  const fanout = new Set(await readdir(objectsDir));
  const listings = new Map<string, Promise<Set<string>>>();
  const listing = (prefix: string) => {
    let names = listings.get(prefix);
    if (!names) listings.set(prefix, (names = readdir(join(objectsDir, prefix)).then((list) => new Set(list))));
    return names;
  };
  const stored = await Promise.all(
    candidates.map(async (object) => {
      const prefix = object.oid.slice(0, 2);
      return fanout.has(prefix) && (await listing(prefix)).has(object.oid.slice(2));
    }),
  );
  return candidates.filter((_, i) => !stored[i]);
}

function packGroups(objects: GitObject[]): GitObject[][] {
  const groups: GitObject[][] = [];
  let bytes = Infinity;
  for (const object of objects) {
    if (bytes + object.content.length > PACK_BYTES_MAX) {
      groups.push([]);
      bytes = 0;
    }
    groups[groups.length - 1]!.push(object);
    bytes += object.content.length;
  }
  return groups;
}

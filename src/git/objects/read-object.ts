import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readLoose } from './loose-objects.js';
import { PackIndex } from './pack-index.js';
import { applyDelta, readPackEntry, type PackedType } from './pack-entry.js';

export interface StoredObject {
  type: PackedType;
  content: Buffer;
}

/** Pack indexes kept read, by path: a pack never changes under its name (`pack-<checksum>`). */
const indexes = new Map<string, Promise<PackIndex | null>>();
const INDEXES_MAX = 64;

/** Objects a delta was applied to (deltas of one file share bases), least recently used first. */
const bases = new Map<string, StoredObject>();
const BASES_BYTES_MAX = 16 << 20;
let basesBytes = 0;

/** Deltas on deltas beyond this are a corrupt pack (git's own limit is 4,095; --depth defaults to 50). */
const CHAIN_MAX = 10_000;

/**
 * Object `oid` (40 hex digits) of the repository at `gitdir`, read from its packs through their
 * indexes (binary search, only the object's own entries read and inflated with node's zlib) or
 * from its loose file; null when neither holds it (the caller then asks isomorphic-git, whose
 * errors say what is missing). A pack a concurrent `git gc` removed between listing and reading
 * makes the search start again once.
 */
export async function readObject(gitdir: string, oid: string): Promise<StoredObject | null> {
  try {
    return await search(gitdir, oid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return search(gitdir, oid, 0);
  }
}

async function search(gitdir: string, oid: string, depth: number): Promise<StoredObject | null> {
  for (const pack of packNames(gitdir)) {
    const index = await packIndex(join(gitdir, 'objects', 'pack', `${pack}.idx`));
    const offset = index?.offsetOf(oid);
    if (offset !== undefined) return readPacked(gitdir, join(gitdir, 'objects', 'pack', `${pack}.pack`), index!, offset, depth);
  }
  const loose = readLoose(gitdir, oid);
  if (loose === null) return null;
  if (!['blob', 'tree', 'commit', 'tag'].includes(loose.type))
    throw new Error(`object ${oid} in ${gitdir} has the unknown type ${loose.type}`);
  return { type: loose.type as PackedType, content: loose.content };
}

/** The packs of the repository by name (`pack-<checksum>`), those with both files. */
function packNames(gitdir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(gitdir, 'objects', 'pack'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const packs = new Set(names.filter((name) => name.endsWith('.pack')).map((name) => name.slice(0, -5)));
  return names.filter((name) => name.endsWith('.idx') && packs.has(name.slice(0, -4))).map((name) => name.slice(0, -4));
}

function packIndex(path: string): Promise<PackIndex | null> {
  let index = indexes.get(path);
  if (index === undefined) {
    if (indexes.size >= INDEXES_MAX) indexes.delete(indexes.keys().next().value!);
    index = readFile(path).then((bytes) => PackIndex.from(bytes));
    index.catch(() => indexes.delete(path));
    indexes.set(path, index);
  }
  return index;
}

/**
 * The object whose entry is at `offset` of `pack`: the entry itself, or its chain of deltas
 * walked down to a whole object (by offset in the same pack, or by oid anywhere in the
 * repository) and applied back up.
 */
async function readPacked(gitdir: string, pack: string, index: PackIndex, offset: number, depth: number): Promise<StoredObject> {
  const deltas: Buffer[] = [];
  let at = offset;
  let base: StoredObject | undefined;
  /** Set when the whole object at the bottom of the chain is the entry at `at` of this pack. */
  let inThisPack = true;
  while (base === undefined) {
    if (deltas.length + depth > CHAIN_MAX) throw new Error(`${pack}: a chain of over ${CHAIN_MAX} deltas at offset ${offset}`);
    const cached = bases.get(`${pack}:${at}`);
    if (cached !== undefined) {
      base = cached;
      break;
    }
    const entry = readPackEntry(pack, at);
    if (entry.kind === 'whole') base = { type: entry.type, content: entry.content };
    else if (entry.kind === 'ofs-delta') {
      deltas.push(entry.delta);
      at = entry.baseOffset;
    } else {
      deltas.push(entry.delta);
      const inPack = index.offsetOf(entry.baseOid);
      if (inPack !== undefined) at = inPack;
      else {
        const found = await search(gitdir, entry.baseOid, depth + deltas.length);
        if (found === null) throw new Error(`${pack}: the base ${entry.baseOid} of the delta at offset ${at} is in no pack and not loose`);
        base = found;
        inThisPack = false;
      }
    }
  }
  if (deltas.length > 0 && inThisPack) remember(`${pack}:${at}`, base);
  let object = base;
  for (let i = deltas.length - 1; i >= 0; i -= 1) object = { type: object.type, content: applyDelta(object.content, deltas[i]!) };
  return object;
}

function remember(key: string, object: StoredObject): void {
  if (object.content.length > BASES_BYTES_MAX / 4) return;
  const old = bases.get(key);
  if (old !== undefined) {
    bases.delete(key);
    basesBytes -= old.content.length;
  }
  bases.set(key, object);
  basesBytes += object.content.length;
  for (const [k, v] of bases) {
    if (basesBytes <= BASES_BYTES_MAX) break;
    bases.delete(k);
    basesBytes -= v.content.length;
  }
}

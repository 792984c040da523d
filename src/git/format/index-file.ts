import { createHash } from 'node:crypto';
import { type CacheTree, renderCacheTree } from './cache-tree.js';

/** What the index records of a file: its blob and the `lstat` of its working-tree copy. */
export interface IndexEntry {
  path: string;
  oid: string;
  stat: {
    ctimeNs: bigint;
    mtimeNs: bigint;
    dev: bigint;
    ino: bigint;
    uid: bigint;
    gid: bigint;
    size: bigint;
  };
}

const HEADER = Buffer.from('DIRC\0\0\0\x02', 'latin1');
/** Every file docsync writes is a regular, non-executable file (see commitFiles). */
export const MODE_FILE = 0o100644;
/** The flags keep the path's length in 12 bits; longer paths store 0xfff and end at the NUL. */
const NAME_MASK = 0xfff;
const U32 = 0xffffffffn;

/**
 * An index file (format version 2, gitformat-index) with one stage-0 entry per file and, given
 * one, the cache tree (`TREE`) as its only extension. Entries are sorted by the bytes of their
 * UTF-8 paths, as git keeps them; stat fields hold their low 32 bits, as git stores them. Pure:
 * no I/O.
 */
export function renderIndex(entries: readonly IndexEntry[], cacheTree?: CacheTree): Buffer {
  const named = entries.map((entry) => ({ entry, name: Buffer.from(entry.path, 'utf8') })).sort((a, b) => Buffer.compare(a.name, b.name));
  // 62 fixed bytes, the name, and 1 to 8 NULs so that each entry's length is a multiple of 8.
  const size = (name: Buffer) => Math.ceil((62 + name.length + 1) / 8) * 8;
  const tree = cacheTree ? renderCacheTree(cacheTree) : undefined;
  const extension = tree ? 8 + tree.length : 0;
  const out = Buffer.alloc(HEADER.length + 4 + named.reduce((total, { name }) => total + size(name), 0) + extension + 20);
  HEADER.copy(out, 0);
  out.writeUInt32BE(named.length, HEADER.length);
  let offset = HEADER.length + 4;
  for (const { entry, name } of named) {
    const { stat } = entry;
    const fields = [
      stat.ctimeNs / 1_000_000_000n,
      stat.ctimeNs % 1_000_000_000n,
      stat.mtimeNs / 1_000_000_000n,
      stat.mtimeNs % 1_000_000_000n,
      stat.dev,
      stat.ino,
      BigInt(MODE_FILE),
      stat.uid,
      stat.gid,
      stat.size,
    ];
    fields.forEach((value, i) => out.writeUInt32BE(Number(value & U32), offset + i * 4));
    out.write(entry.oid, offset + 40, 20, 'hex');
    out.writeUInt16BE(Math.min(name.length, NAME_MASK), offset + 60);
    name.copy(out, offset + 62);
    offset += size(name);
  }
  if (tree) {
    offset += out.write('TREE', offset, 'latin1');
    offset = out.writeUInt32BE(tree.length, offset);
    offset += tree.copy(out, offset);
  }
  createHash('sha1').update(out.subarray(0, offset)).digest().copy(out, offset);
  return out;
}

import { createHash } from 'node:crypto';
import { comparePaths } from './paths.js';

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
const MODE_FILE = 0o100644;
/** The flags keep the path's length in 12 bits; longer paths store 0xfff and end at the NUL. */
const NAME_MASK = 0xfff;
const U32 = 0xffffffffn;

/**
 * An index file (format version 2, gitformat-index) with one stage-0 entry per file and no
 * extensions. Entries are sorted by the bytes of their UTF-8 paths, as git keeps them; stat
 * fields hold their low 32 bits, as git stores them. Pure: no I/O.
 */
export function renderIndex(entries: readonly IndexEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => comparePaths(a.path, b.path));
  const count = Buffer.alloc(4);
  count.writeUInt32BE(sorted.length);
  const parts: Buffer[] = [HEADER, count];
  for (const entry of sorted) {
    const name = Buffer.from(entry.path, 'utf8');
    // 62 fixed bytes, the name, and 1 to 8 NULs so that the entry's length is a multiple of 8.
    const length = Math.ceil((62 + name.length + 1) / 8) * 8;
    const out = Buffer.alloc(length);
    const { stat } = entry;
    const fields = [
      stat.ctimeNs / 1_000_000_000n, stat.ctimeNs % 1_000_000_000n,
      stat.mtimeNs / 1_000_000_000n, stat.mtimeNs % 1_000_000_000n,
      stat.dev, stat.ino, BigInt(MODE_FILE), stat.uid, stat.gid, stat.size,
    ];
    fields.forEach((value, i) => out.writeUInt32BE(Number(value & U32), i * 4));
    out.write(entry.oid, 40, 20, 'hex');
    out.writeUInt16BE(Math.min(name.length, NAME_MASK), 60);
    name.copy(out, 62);
    parts.push(out);
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

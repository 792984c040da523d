import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

/** Pack entry types (gitformat-pack): four whole-object types and two kinds of delta. */
const TYPES = ['', 'commit', 'tree', 'blob', 'tag'] as const;
const OFS_DELTA = 6;
const REF_DELTA = 7;

export type PackedType = 'commit' | 'tree' | 'blob' | 'tag';

/** One entry of a pack as stored: a whole object, or a delta against a base found by offset or oid. */
export type PackEntry =
  | { kind: 'whole'; type: PackedType; content: Buffer }
  | { kind: 'ofs-delta'; baseOffset: number; delta: Buffer }
  | { kind: 'ref-delta'; baseOid: string; delta: Buffer };

/**
 * Bytes read at an entry's offset: its header (at most 10 bytes of size, 20 of a base oid) and
 * its compressed data, which zlib keeps within a few bytes per 16 KiB of the inflated size. A
 * stream that still does not fit (another compressor's) is read again up to the pack's end.
 */
const readBound = (size: number) => 64 + size + (size >> 10);

/**
 * The entry at `offset` of the pack file `path`, read with one positioned read and inflated with
 * node's zlib. Throws when the entry is not what its header says (a corrupt pack).
 */
export function readPackEntry(path: string, offset: number): PackEntry {
  const fd = openSync(path, 'r');
  try {
    let bytes = readAt(fd, offset, 64);
    let at = 0;
    let byte = bytes[at++]!;
    const typeNumber = (byte >> 4) & 7;
    let size = byte & 0x0f;
    for (let shift = 4; byte & 0x80; shift += 7) {
      byte = bytes[at++]!;
      size += (byte & 0x7f) * 2 ** shift;
    }
    let base: { offset: number } | { oid: string } | undefined;
    if (typeNumber === OFS_DELTA) {
      byte = bytes[at++]!;
      let back = byte & 0x7f;
      while (byte & 0x80) {
        byte = bytes[at++]!;
        back = (back + 1) * 128 + (byte & 0x7f);
      }
      base = { offset: offset - back };
    } else if (typeNumber === REF_DELTA) {
      base = { oid: bytes.toString('hex', at, at + 20) };
      at += 20;
    } else if (!TYPES[typeNumber]) throw new Error(`${path}: unknown entry type ${typeNumber} at offset ${offset}`);
    bytes = readAt(fd, offset + at, readBound(size));
    let data: Buffer;
    try {
      data = inflateSync(bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'Z_BUF_ERROR') throw error;
      data = inflateSync(readAt(fd, offset + at, fstatSync(fd).size - offset - at));
    }
    if (data.length !== size)
      throw new Error(`${path}: the entry at offset ${offset} inflates to ${data.length} bytes, its header says ${size}`);
    if (base === undefined) return { kind: 'whole', type: TYPES[typeNumber] as PackedType, content: data };
    return 'offset' in base
      ? { kind: 'ofs-delta', baseOffset: base.offset, delta: data }
      : { kind: 'ref-delta', baseOid: base.oid, delta: data };
  } finally {
    closeSync(fd);
  }
}

/** Up to `length` bytes of `fd` from `position` (fewer at the end of the file). */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  const read = readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

/**
 * Applies a git delta (gitformat-pack, "Deltified representation") to `base`: two sizes, then
 * instructions that copy a range of the base or insert literal bytes.
 */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let at = 0;
  const size = () => {
    let value = 0;
    let byte: number;
    let shift = 0;
    do {
      byte = delta[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  const baseSize = size();
  if (baseSize !== base.length) throw new Error(`a delta for a base of ${baseSize} bytes was applied to ${base.length}`);
  const target = Buffer.allocUnsafe(size());
  let out = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let from = 0;
      let length = 0;
      for (let i = 0; i < 4; i += 1) if (op & (1 << i)) from += delta[at++]! * 2 ** (8 * i);
      for (let i = 0; i < 3; i += 1) if (op & (0x10 << i)) length += delta[at++]! * 2 ** (8 * i);
      if (length === 0) length = 0x10000;
      if (from + length > base.length || out + length > target.length) throw new Error('a delta copies past the end of its base or target');
      out += base.copy(target, out, from, from + length);
    } else if (op > 0) {
      if (at + op > delta.length || out + op > target.length) throw new Error('a delta inserts past its end');
      out += delta.copy(target, out, at, at + op);
      at += op;
    } else throw new Error('a delta holds the reserved instruction 0');
  }
  if (out !== target.length) throw new Error(`a delta made ${out} bytes, its header says ${target.length}`);
  return target;
}

/** An idx version 2 file starts with "\377tOc" and the version. */
const IDX_V2 = Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]);

const FANOUT_AT = 8;
const OIDS_AT = FANOUT_AT + 256 * 4;

/**
 * Where objects are in one pack, answered from its index file (idx version 2, gitformat-pack)
 * without parsing it whole: the fan-out table narrows an oid to the entries sharing its first
 * byte, a binary search over those finds it. So a lookup costs the same in a pack of 10 objects
 * as in one of 5,000, and building the index costs one read of the file.
 */
export class PackIndex {
  readonly #idx: Buffer;
  readonly #count: number;

  private constructor(idx: Buffer, count: number) {
    this.#idx = idx;
    this.#count = count;
  }

  /**
   * The index held in `idx`; null for an index this reader does not know (version 1, written by
   * git before 1.5.2, or a truncated file): its objects are then read the other way.
   */
  static from(idx: Buffer): PackIndex | null {
    if (idx.length < OIDS_AT || !idx.subarray(0, 8).equals(IDX_V2)) return null;
    const count = idx.readUInt32BE(FANOUT_AT + 255 * 4);
    // oids, crc32s and 32-bit offsets, then the two checksums (the 64-bit offsets sit between).
    if (idx.length < OIDS_AT + count * 28 + 40) return null;
    return new PackIndex(idx, count);
  }

  /** The offset in the pack of object `oid` (40 hex digits); undefined when the pack lacks it. */
  offsetOf(oid: string): number | undefined {
    const key = Buffer.from(oid, 'hex');
    if (key.length !== 20) return undefined;
    const idx = this.#idx;
    let low = key[0] === 0 ? 0 : idx.readUInt32BE(FANOUT_AT + (key[0]! - 1) * 4);
    let high = idx.readUInt32BE(FANOUT_AT + key[0]! * 4);
    while (low < high) {
      const middle = (low + high) >>> 1;
      const at = OIDS_AT + middle * 20;
      const order = idx.compare(key, 0, 20, at, at + 20);
      if (order === 0) return this.#offsetAt(middle);
      if (order < 0) low = middle + 1;
      else high = middle;
    }
    return undefined;
  }

  /** The `n`th entry's offset: 31 bits, or with the top bit set, an index into the 64-bit table. */
  #offsetAt(n: number): number {
    const offsets = OIDS_AT + this.#count * 24;
    const small = this.#idx.readUInt32BE(offsets + n * 4);
    if ((small & 0x80000000) === 0) return small;
    const large = offsets + this.#count * 4 + (small & 0x7fffffff) * 8;
    return Number(this.#idx.readBigUInt64BE(large));
  }
}

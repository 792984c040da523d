/**
 * A zip archive's central directory, read by hand so that every size and offset is one the
 * reader checks, never one an inflater trusts (APPNOTE.TXT 4.3: end of central directory,
 * central directory headers, local file headers; ZIP64 sizes and offsets in extra field 0x0001).
 */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  /** What the entry declares; the reader holds the entry to it. */
  size: number;
  /** Where the entry's compressed bytes start and end in the archive. */
  start: number;
  end: number;
}

export class ZipFormatError extends Error {}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function fail(message: string): never {
  throw new ZipFormatError(message);
}

/** The archive's entries (directories included), in central-directory order. */
export function zipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => (at + 2 <= bytes.length ? view.getUint16(at, true) : fail('truncated'));
  const u32 = (at: number) => (at + 4 <= bytes.length ? view.getUint32(at, true) : fail('truncated'));
  const u64 = (at: number) => {
    const value = at + 8 <= bytes.length ? view.getBigUint64(at, true) : fail('truncated');
    return value > BigInt(Number.MAX_SAFE_INTEGER) ? fail('a ZIP64 size is out of range') : Number(value);
  };

  // The end record is in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at -= 1) {
    if (u32(at) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) fail('no end of central directory record');
  let count = u16(eocd + 10);
  let offset = u32(eocd + 16);
  if ((count === 0xffff || offset === 0xffffffff) && eocd >= 20 && u32(eocd - 20) === ZIP64_LOCATOR) {
    const record = u64(eocd - 12);
    if (u32(record) !== ZIP64_EOCD) fail('broken ZIP64 end record');
    count = u64(record + 32);
    offset = u64(record + 48);
  }

  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i += 1) {
    if (u32(at) !== CENTRAL) fail('broken central directory');
    const flags = u16(at + 8);
    const method = u16(at + 10);
    let compressedSize = u32(at + 20);
    let size = u32(at + 24);
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    const commentLength = u16(at + 32);
    let local = u32(at + 42);
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    // Bit 11: the name is UTF-8; otherwise CP437, read here as Latin-1 (as fflate does).
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(nameBytes);
    if (flags & 0x1) fail(`entry ${JSON.stringify(name)} is encrypted`);
    // ZIP64 extra field: the 8-byte values of the fields set to 0xffffffff, in this order.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength;) {
      const id = u16(x);
      const length = u16(x + 2);
      if (id === 0x0001) {
        let field = x + 4;
        if (size === 0xffffffff) {
          size = u64(field);
          field += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = u64(field);
          field += 8;
        }
        if (local === 0xffffffff) local = u64(field);
      }
      x += 4 + length;
    }
    if (u32(local) !== LOCAL) fail(`entry ${JSON.stringify(name)} has no local header`);
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    const end = start + compressedSize;
    if (end > bytes.length) fail(`entry ${JSON.stringify(name)} runs past the end of the archive`);
    entries.push({ name, method, compressedSize, size, start, end });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

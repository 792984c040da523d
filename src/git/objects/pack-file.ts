import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeThroughTemporary } from '../atomic-fs.js';
import { crc32, deflateSync } from 'node:zlib';
import type { GitObject } from '../format/object-format.js';

/** Pack type numbers (gitformat-pack: OBJ_COMMIT = 1, OBJ_TREE = 2, OBJ_BLOB = 3). */
const PACK_TYPE = { commit: 1, tree: 2, blob: 3 } as const;

/** An idx v2 file starts with "\377tOc" and the version. */
const IDX_MAGIC = Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]);

export interface RenderedPack {
  /** `pack-<checksum>`, the name git gives a pack: the hex of its trailing checksum. */
  name: string;
  pack: Buffer;
  idx: Buffer;
}

/**
 * A pack (version 2) holding `objects` whole, each compressed on its own (no deltas), and its
 * index (idx version 2), as gitformat-pack describes them. Offsets are 32-bit: the caller keeps a
 * pack under 2 GiB (isomorphic-git reads no larger ones anyway). Pure: no I/O.
 */
export function renderPack(objects: readonly GitObject[]): RenderedPack {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(objects.length, 8);
  const parts: Buffer[] = [header];
  const entries: { oid: Buffer; crc: number; offset: number }[] = [];
  let offset = header.length;
  for (const object of objects) {
    const entryHeader = packEntryHeader(PACK_TYPE[object.type], object.content.length);
    const data = deflateSync(object.content);
    entries.push({ oid: Buffer.from(object.oid, 'hex'), crc: crc32(data, crc32(entryHeader)), offset });
    if (offset + entryHeader.length + data.length > 0x7fffffff)
      throw new RangeError('a pack must stay under 2 GiB: write the objects as several packs');
    parts.push(entryHeader, data);
    offset += entryHeader.length + data.length;
  }
  const checksum = sha1(parts);
  parts.push(checksum);

  entries.sort((a, b) => Buffer.compare(a.oid, b.oid));
  const fanout = Buffer.alloc(256 * 4);
  let next = 0;
  for (let byte = 0; byte < 256; byte += 1) {
    while (next < entries.length && entries[next]!.oid[0]! <= byte) next += 1;
    fanout.writeUInt32BE(next, byte * 4);
  }
  const crcs = Buffer.alloc(entries.length * 4);
  const offsets = Buffer.alloc(entries.length * 4);
  entries.forEach((entry, i) => {
    crcs.writeUInt32BE(entry.crc, i * 4);
    offsets.writeUInt32BE(entry.offset, i * 4);
  });
  const idxParts = [IDX_MAGIC, fanout, ...entries.map((entry) => entry.oid), crcs, offsets, checksum];
  idxParts.push(sha1(idxParts));
  return { name: `pack-${checksum.toString('hex')}`, pack: Buffer.concat(parts), idx: Buffer.concat(idxParts) };
}

/** Type and size of a pack entry: 3 type bits and 4 size bits, then 7 size bits per byte. */
function packEntryHeader(type: number, size: number): Buffer {
  const bytes = [(type << 4) | (size & 0x0f)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes[bytes.length - 1]! |= 0x80;
    bytes.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(bytes);
}

function sha1(parts: readonly Buffer[]): Buffer {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/**
 * Stores `objects` as one pack in `<gitdir>/objects/pack`. Each file is written under a
 * temporary name and renamed into place, the pack before its index, as git does: a reader that
 * finds an `.idx` always finds its whole `.pack`.
 */
export async function writePack(gitdir: string, objects: readonly GitObject[]): Promise<void> {
  const { name, pack, idx } = renderPack(objects);
  const folder = join(gitdir, 'objects', 'pack');
  await mkdir(folder, { recursive: true });
  for (const [data, extension] of [
    [pack, 'pack'],
    [idx, 'idx'],
  ] as const) {
    await writeThroughTemporary(
      join(folder, `tmp_${randomBytes(6).toString('hex')}_${extension}`),
      join(folder, `${name}.${extension}`),
      data,
      { mode: 0o444 },
    );
  }
}

/** The oids of every object in the repository's packs, read from their idx (v2) files. */
export async function packedOids(gitdir: string): Promise<Set<string>> {
  const folder = join(gitdir, 'objects', 'pack');
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const oids = new Set<string>();
  for (const name of names.filter((n) => n.endsWith('.idx'))) {
    const idx = await readFile(join(folder, name));
    // A version 1 index (no magic) or a truncated one: its objects just count as absent, so at
    // worst they are written again.
    const start = 8 + 1024;
    if (idx.length < start || !idx.subarray(0, 8).equals(IDX_MAGIC)) continue;
    const count = idx.readUInt32BE(8 + 255 * 4);
    if (idx.length < start + count * 20) continue;
    for (let i = 0; i < count; i += 1) oids.add(idx.toString('hex', start + i * 20, start + (i + 1) * 20));
  }
  return oids;
}

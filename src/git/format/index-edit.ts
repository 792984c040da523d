import { createHash } from 'node:crypto';
import { type CacheTree, invalidateCacheTree, parseCacheTree, renderCacheTree } from './cache-tree.js';
import { cacheTreeOf, indexFolders } from './index-folders.js';
import type { ParsedIndex, StoredIndexEntry } from './index-read.js';

/** A stage-0 entry to write: its blob, the mode git records, and the stat fields as storedStat gives them. */
export interface NewIndexEntry {
  oid: string;
  mode: number;
  /** ctime s, ctime ns, mtime s, mtime ns, dev, ino, mode (ignored: `mode` wins), uid, gid, size. */
  stat: readonly number[];
}

const MODE_FIELD = 6;
const STAT_AND_OID = 60;
const EXTENDED = 0x4000;
const NAME_MASK = 0xfff;

interface Slot {
  name: Buffer;
  bytes: Buffer;
}

/** A version 2/3 entry's bytes: 62 (64 with extended flags) fixed bytes, the name, 1 to 8 NULs to a multiple of 8. */
const entrySize = (fixed: number, name: Buffer) => Math.ceil((fixed + name.length + 1) / 8) * 8;

function renderEntry(name: Buffer, entry: NewIndexEntry): Buffer {
  const out = Buffer.alloc(entrySize(62, name));
  entry.stat.forEach((value, i) => out.writeUInt32BE(i === MODE_FIELD ? entry.mode : value >>> 0, i * 4));
  out.write(entry.oid, 40, 20, 'hex');
  out.writeUInt16BE(Math.min(name.length, NAME_MASK), STAT_AND_OID);
  name.copy(out, 62);
  return out;
}

/**
 * The index `data` (parsed as `index`) with each path of `edits` set to a new stage-0 entry or,
 * for null, removed. Every other entry is copied byte for byte, flags included, and the version
 * kept. The cache tree is kept with the folders above each edited path invalidated, as git
 * keeps it, so a later status hashes only those folders; other extensions are dropped, since an
 * untracked cache (or what else) would no longer be true (git rebuilds them when it wants them).
 * A version 4 index, whose prefix-compressed paths
 * cannot be spliced, is written again in version 2 (git reads either). Entries stay in git's
 * order, by the bytes of their paths. With `tree`, the tree the edited entries make as a commit
 * of them has it, the cache tree is made whole again (only the invalidated folders hashed) and
 * kept when its root is that tree, so the next status hashes nothing. Pure: no I/O.
 * @returns null for a version 4 index with an entry version 2 cannot hold (extended flags).
 */
export function editIndex(
  data: Buffer,
  index: ParsedIndex,
  edits: ReadonlyMap<string, NewIndexEntry | null>,
  options: { tree?: string } = {},
): Buffer | null {
  const slots: Slot[] = [];
  for (const entry of index.entries) {
    if (edits.has(entry.path)) continue;
    const name = Buffer.from(entry.path, 'utf8');
    if (index.version === 4) {
      if (entry.intentToAdd || entry.skipWorktree || entry.assumeValid || entry.stage !== 0) return null;
      slots.push({ name, bytes: renderEntry(name, { oid: entry.oid, mode: entry.mode, stat: storedFields(entry) }) });
      continue;
    }
    const extended = (data.readUInt16BE(entry.offset + STAT_AND_OID) & EXTENDED) !== 0;
    slots.push({ name, bytes: data.subarray(entry.offset, entry.offset + entrySize(extended ? 64 : 62, name)) });
  }
  for (const [path, entry] of edits) {
    if (entry === null) continue;
    const name = Buffer.from(path, 'utf8');
    slots.push({ name, bytes: renderEntry(name, entry) });
  }
  slots.sort((a, b) => Buffer.compare(a.name, b.name));
  const header = Buffer.alloc(12);
  data.copy(header, 0, 0, 8);
  if (index.version === 4) header.writeUInt32BE(2, 4);
  header.writeUInt32BE(slots.length, 8);
  const cached = index.cacheTree ? parseCacheTree(index.cacheTree) : null;
  let tree: CacheTree | null = cached && invalidateCacheTree(cached, edits.keys());
  if (options.tree !== undefined) {
    const entries = slots.map((slot) => ({
      path: slot.name.toString('utf8'),
      oid: slot.bytes.toString('hex', 40, 60),
      mode: slot.bytes.readUInt32BE(MODE_FIELD * 4),
    }));
    const whole = cacheTreeOf(indexFolders(entries, tree));
    if (whole.oid === options.tree) tree = whole;
  }
  const extensions = tree ? [extension('TREE', renderCacheTree(tree))] : [];
  const body = Buffer.concat([header, ...slots.map((slot) => slot.bytes), ...extensions]);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

function extension(signature: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(signature, 0, 'latin1');
  head.writeUInt32BE(data.length, 4);
  return Buffer.concat([head, data]);
}

const storedFields = (entry: StoredIndexEntry) => [
  entry.ctimeSeconds,
  entry.ctimeNanoseconds,
  entry.mtimeSeconds,
  entry.mtimeNanoseconds,
  entry.dev,
  entry.ino,
  entry.mode,
  entry.uid,
  entry.gid,
  entry.size,
];

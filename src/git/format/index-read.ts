import { createHash } from 'node:crypto';

/** One entry of the index as stored (gitformat-index): stat fields are the low 32 bits git keeps. */
export interface StoredIndexEntry {
  path: string;
  oid: string;
  ctimeSeconds: number;
  ctimeNanoseconds: number;
  mtimeSeconds: number;
  mtimeNanoseconds: number;
  dev: number;
  ino: number;
  /** `0o100644`, `0o100755`, `0o120000` (symbolic link) or `0o160000` (submodule). */
  mode: number;
  uid: number;
  gid: number;
  size: number;
  /** 0 for a normal entry; 1 to 3 for the sides of an unresolved merge. */
  stage: number;
  assumeValid: boolean;
  skipWorktree: boolean;
  /** Added with `git add -N`: the path is known, its content not staged (the oid is the empty blob's). */
  intentToAdd: boolean;
  /** Where the entry starts in the file: its first 40 bytes are the stat fields (all versions). */
  offset: number;
}

export interface ParsedIndex {
  version: 2 | 3 | 4;
  entries: StoredIndexEntry[];
  /** Signatures of the extensions after the entries, in file order (`TREE`, `REUC`, `UNTR`, ...). */
  extensions: string[];
  /** The data of the `TREE` extension (the cache tree, see cache-tree.ts), when the index has one. */
  cacheTree?: Buffer;
}

/** An index this reader does not take, and why; callers fall back to isomorphic-git's own reader. */
export interface UnsupportedIndex {
  unsupported: string;
}

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const NAME_MASK = 0xfff;
const SKIP_WORKTREE = 0x4000;
const INTENT_TO_ADD = 0x2000;
const STAT_AND_OID = 60;

/**
 * Reads an index file of version 2, 3 (extended flags) or 4 (prefix-compressed paths), as the git
 * CLI and isomorphic-git write them, and checks its trailing sha1. Extensions are skipped, except
 * that one git requires readers to understand (signature starting with a lowercase letter: `link`
 * for a split index, `sdir` for a sparse one) makes the index unsupported, as does anything
 * malformed. Pure: no I/O.
 */
export function parseIndex(data: Buffer): ParsedIndex | UnsupportedIndex {
  if (data.length < 32 || data.toString('latin1', 0, 4) !== 'DIRC') return { unsupported: 'not an index file (no DIRC signature)' };
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3 && version !== 4) return { unsupported: `index format version ${version}` };
  const end = data.length - 20;
  const checksum = createHash('sha1').update(data.subarray(0, end)).digest();
  if (!checksum.equals(data.subarray(end))) return { unsupported: 'index checksum mismatch' };

  const count = data.readUInt32BE(8);
  const entries: StoredIndexEntry[] = [];
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i += 1) {
    const start = offset;
    if (start + STAT_AND_OID + 2 > end) return { unsupported: 'index ends inside an entry' };
    const flags = data.readUInt16BE(start + STAT_AND_OID);
    let cursor = start + STAT_AND_OID + 2;
    let extended = 0;
    if (flags & EXTENDED) {
      if (version === 2) return { unsupported: 'extended flags in a version 2 index' };
      extended = data.readUInt16BE(cursor);
      cursor += 2;
      if (extended & ~(SKIP_WORKTREE | INTENT_TO_ADD)) return { unsupported: `unknown extended flags 0x${extended.toString(16)}` };
    }
    let path: string;
    if (version === 4) {
      // The path is the previous one minus `strip` trailing bytes, plus a NUL-terminated suffix;
      // entries are not padded.
      const [strip, suffix] = readOffsetVarint(data, cursor, end);
      const nul = data.indexOf(0, suffix);
      if (strip > previous.length || nul < 0 || nul >= end) return { unsupported: 'malformed path in a version 4 index' };
      previous = Buffer.concat([previous.subarray(0, previous.length - strip), data.subarray(suffix, nul)]);
      path = previous.toString('utf8');
      offset = nul + 1;
    } else {
      const length = flags & NAME_MASK;
      const nul = length < NAME_MASK ? cursor + length : data.indexOf(0, cursor);
      if (nul < 0 || nul >= end || data[nul] !== 0) return { unsupported: 'malformed path in the index' };
      path = data.toString('utf8', cursor, nul);
      // 1 to 8 NULs pad each entry to a multiple of 8 bytes.
      offset = start + Math.ceil((nul + 1 - start) / 8) * 8;
      if (offset > end) return { unsupported: 'index ends inside an entry' };
      for (let at = nul + 1; at < offset; at += 1) if (data[at] !== 0) return { unsupported: 'malformed entry padding in the index' };
    }
    entries.push(entryAt(data, start, path, flags, extended));
  }

  const extensions: string[] = [];
  let cacheTree: Buffer | undefined;
  while (offset < end) {
    if (offset + 8 > end) return { unsupported: 'index ends inside an extension header' };
    const signature = data.toString('latin1', offset, offset + 4);
    const size = data.readUInt32BE(offset + 4);
    // Git's rule: an extension whose signature starts with A-Z is optional, any other is required.
    if (!/^[A-Z]/.test(signature)) return { unsupported: `index extension ${JSON.stringify(signature)}` };
    if (signature === 'TREE' && offset + 8 + size <= end) cacheTree = data.subarray(offset + 8, offset + 8 + size);
    offset += 8 + size;
    extensions.push(signature);
  }
  if (offset !== end) return { unsupported: 'index extension runs past the checksum' };
  return { version, entries, extensions, ...(cacheTree ? { cacheTree } : {}) };
}

function entryAt(data: Buffer, offset: number, path: string, flags: number, extended: number): StoredIndexEntry {
  const u32 = (field: number) => data.readUInt32BE(offset + field * 4);
  return {
    path,
    oid: data.toString('hex', offset + 40, offset + 60),
    ctimeSeconds: u32(0),
    ctimeNanoseconds: u32(1),
    mtimeSeconds: u32(2),
    mtimeNanoseconds: u32(3),
    dev: u32(4),
    ino: u32(5),
    mode: u32(6),
    uid: u32(7),
    gid: u32(8),
    size: u32(9),
    stage: (flags >> 12) & 3,
    assumeValid: (flags & ASSUME_VALID) !== 0,
    skipWorktree: (extended & SKIP_WORKTREE) !== 0,
    intentToAdd: (extended & INTENT_TO_ADD) !== 0,
    offset,
  };
}

/**
 * Git's "offset" varint (varint.c): 7 bits a byte, most significant first, each continuation
 * adding one so that every value has a single encoding.
 * @returns the value and the offset after it.
 */
function readOffsetVarint(data: Buffer, offset: number, end: number): [number, number] {
  let byte = offset < end ? data[offset++]! : 0;
  let value = byte & 0x7f;
  while (byte & 0x80 && offset < end) {
    byte = data[offset++]!;
    value = (value + 1) * 128 + (byte & 0x7f);
  }
  return [value, offset];
}

import type { BigIntStats } from 'node:fs';
import type { StoredIndexEntry } from '../format/index-read.js';

const U32 = 0xffffffffn;
const NS_PER_S = 1_000_000_000n;

export interface StatOptions {
  /** `core.filemode`: whether an executable bit that changed makes the entry stale. */
  filemode: boolean;
  /** Whether inode numbers are stable (not on Windows), as isomorphic-git decides. */
  trustino: boolean;
}

/** The mode git records for a file: 100644, 100755, 120000 or 040000 (isomorphic-git's normalizeMode). */
export function gitMode(mode: number): number {
  let type = mode > 0 ? mode >> 12 : 0;
  if (type !== 0o04 && type !== 0o10 && type !== 0o12 && type !== 0o16) type = 0o10;
  if (type !== 0o10) return type << 12;
  return (type << 12) | (mode & 0o111 ? 0o755 : 0o644);
}

const low32 = (value: bigint) => Number(value & U32);

/**
 * Whether a stored time is this file time: as git stores it (seconds and nanoseconds, low 32
 * bits), or as isomorphic-git does, from node's millisecond float (nanoseconds off by a few
 * hundred), so that entries it wrote are not all hashed again.
 */
function sameTime(seconds: number, nanoseconds: number, ns: bigint): boolean {
  const exactSeconds = ns / NS_PER_S;
  const exactNanoseconds = ns % NS_PER_S;
  if (seconds === low32(exactSeconds) && nanoseconds === Number(exactNanoseconds)) return true;
  // node's Stats.mtimeMs, then isomorphic-git's SecondsNanoseconds.
  const ms = Number(exactSeconds) * 1000 + Number(exactNanoseconds) / 1e6;
  const floatSeconds = Math.floor(ms / 1000);
  return seconds === floatSeconds % 2 ** 32 && nanoseconds === Math.floor((ms - floatSeconds * 1000) * 1e6) % 2 ** 32;
}

/**
 * True when the working-tree file's `lstat` is what the index recorded, so the entry's oid can be
 * trusted without reading the file: the fields isomorphic-git's compareStats checks (mode, mtime,
 * ctime, uid, gid, inode, size). A racily clean entry passes here; see isRacy.
 */
export function statMatches(entry: StoredIndexEntry, stat: BigIntStats, options: StatOptions): boolean {
  return (
    (!options.filemode || gitMode(entry.mode) === gitMode(Number(stat.mode))) &&
    sameTime(entry.mtimeSeconds, entry.mtimeNanoseconds, stat.mtimeNs) &&
    sameTime(entry.ctimeSeconds, entry.ctimeNanoseconds, stat.ctimeNs) &&
    entry.uid === low32(stat.uid) &&
    entry.gid === low32(stat.gid) &&
    (!options.trustino || entry.ino === low32(stat.ino)) &&
    entry.size === low32(stat.size)
  );
}

/**
 * Git's racy-clean rule (Documentation/technical/racy-git.txt): a file modified in the same
 * clock tick as the index was written can keep the stat data the index recorded while its
 * content changed, so a file whose mtime is not older than the index file's must be hashed.
 */
export function isRacy(stat: BigIntStats, indexMtimeNs: bigint): boolean {
  return stat.mtimeNs >= indexMtimeNs;
}

/** The stat fields an index entry stores for `stat`, as git writes them (exact nanoseconds). */
export function storedStat(stat: BigIntStats): number[] {
  return [
    low32(stat.ctimeNs / NS_PER_S),
    Number(stat.ctimeNs % NS_PER_S),
    low32(stat.mtimeNs / NS_PER_S),
    Number(stat.mtimeNs % NS_PER_S),
    low32(stat.dev),
    low32(stat.ino),
    gitMode(Number(stat.mode)),
    low32(stat.uid),
    low32(stat.gid),
    low32(stat.size),
  ];
}

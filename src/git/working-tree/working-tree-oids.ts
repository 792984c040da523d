import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { StoredIndexEntry } from '../format/index-read.js';
import type { StatUpdate } from '../index/index-refresh.js';
import { objectOid } from '../format/object-format.js';
import { gitMode, isRacy, type StatOptions, statMatches } from '../index/stat-data.js';
import { contentOrNull, lstatOrNull } from './working-file.js';

/** Stands for the oid of a file neither HEAD nor the index has: nothing to compare it with, so not hashed. */
const UNTRACKED = 'untracked';

export interface WorkingTreeOids {
  /** Blob oid of each working-tree file by path (UNTRACKED for untracked ones). */
  oids: Map<string, string>;
  /** Entries to refresh (unchanged content, new stat data) and to smudge (racily clean, content changed). */
  updates: StatUpdate[];
  /** Whether a racily clean entry was hashed and found unchanged: rewriting the index (later than its mtime) spares that next time. */
  racyVerified: boolean;
}

const FILES_PER_TURN = 500;

/**
 * The blob oid of each of `paths` (files found in the working tree), reading only what must be
 * read: a file whose `lstat` matches its index entry's stat data takes the entry's oid, unless
 * it is racily clean (not older than the index, `indexMtimeNs`) or intent-to-add; any other
 * file with an entry, or in HEAD, is hashed. A file that vanished meanwhile is left out.
 * Synchronous file calls for all but large files, a turn of the event loop every 500 files: for
 * small files they take a fraction of the time of promise-based ones.
 */
export async function workingTreeOids(
  dir: string,
  paths: Iterable<string>,
  known: { staged: ReadonlyMap<string, StoredIndexEntry>; head: ReadonlyMap<string, string>; indexMtimeNs: bigint | null },
  options: StatOptions,
): Promise<WorkingTreeOids> {
  const result: WorkingTreeOids = { oids: new Map(), updates: [], racyVerified: false };
  // A file dated in the future stays racy however late the index is rewritten: no reason to rewrite it.
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  let done = 0;
  for (const path of paths) {
    if (++done % FILES_PER_TURN === 0) await nextTurn();
    const entry = known.staged.get(path);
    if (entry === undefined && !known.head.has(path)) {
      result.oids.set(path, UNTRACKED);
      continue;
    }
    const full = join(dir, path);
    const stat = lstatOrNull(full);
    if (stat === null || !(stat.isFile() || stat.isSymbolicLink())) continue;
    const matches = entry !== undefined && !entry.intentToAdd && statMatches(entry, stat, options);
    const racy = matches && known.indexMtimeNs !== null && isRacy(stat, known.indexMtimeNs);
    if (matches && !racy) {
      result.oids.set(path, entry.oid);
      continue;
    }
    const content = await contentOrNull(full, stat);
    if (content === null) continue;
    const oid = objectOid('blob', content);
    result.oids.set(path, oid);
    if (entry === undefined || entry.intentToAdd) continue;
    if (oid !== entry.oid) {
      if (matches) result.updates.push({ offset: entry.offset, smudge: true });
    } else if (matches) {
      if (stat.mtimeNs < nowNs) result.racyVerified = true;
    } else if (gitMode(Number(stat.mode)) === gitMode(entry.mode)) {
      result.updates.push({ offset: entry.offset, stat });
    }
  }
  return result;
}

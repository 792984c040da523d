import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withIndexLock } from './index-lock.js';
import type { Repo } from '../repo.js';
import { storedStat } from './stat-data.js';

/**
 * A change to one entry's stat data: the file's new `lstat` for an entry whose content was
 * found unchanged, or `smudge` for a racily clean entry whose content changed (its size is set
 * to 0, as git does, so that it never matches a file's stat again once the index is rewritten).
 */
export type StatUpdate = { offset: number; stat: BigIntStats } | { offset: number; smudge: true };

const MODE_FIELD = 6;
const SIZE_FIELD = 9;

/**
 * The index `data` with `updates` applied to its entries' stat fields, in place in a copy, and
 * its checksum recomputed. The stat fields sit at the same place in every format version, so
 * entries, paths, flags and extensions stay byte for byte as they were. Pure: no I/O.
 */
export function patchStatData(data: Buffer, updates: readonly StatUpdate[]): Buffer {
  const out = Buffer.from(data);
  for (const update of updates) {
    if ('smudge' in update) {
      out.writeUInt32BE(0, update.offset + SIZE_FIELD * 4);
      continue;
    }
    // The mode stays: an entry is refreshed only when its mode still holds (see statusRows).
    storedStat(update.stat).forEach((value, i) => {
      if (i !== MODE_FIELD) out.writeUInt32BE(value, update.offset + i * 4);
    });
  }
  const end = out.length - 20;
  createHash('sha1').update(out.subarray(0, end)).digest().copy(out, end);
  return out;
}

/**
 * Replaces the index with `patched` if it still holds `original`, as `git status` refreshes it:
 * only when it can (under withIndexLock), and never over a change another writer made meanwhile.
 * @param waitMs how long a lock another process holds is waited for (none for a refresh).
 * @returns whether the index was written; false when it is locked, read-only or changed.
 */
export async function writeRefreshedIndex(r: Repo, original: Buffer, patched: Buffer, waitMs = 0): Promise<boolean> {
  const written = await withIndexLock(
    r,
    async (lock) => {
      const current = await readFile(join(r.gitdir, 'index')).catch(() => null);
      if (current === null || !current.equals(original)) return false;
      lock.replace(patched);
      return true;
    },
    // An opportunistic refresh does not wait for another process's lock, as git status does not.
    waitMs,
  );
  return written === true;
}

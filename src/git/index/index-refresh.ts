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
 * Whether a walk of the working tree may take `index.lock` to store what it learned (new stat
 * data, a smudged racy entry), as `git status` does. Not when `GIT_OPTIONAL_LOCKS` is false
 * (what `git --no-optional-locks` sets): a background process, such as an editor's git
 * integration or docsync's daemon, must not make a writer's `git checkout` or `git commit` in
 * another shell fail on the lock. The walk is as right without it; it only hashes again, on the
 * next walk, the files whose stat data it could not record.
 */
export function optionalLocksAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.GIT_OPTIONAL_LOCKS?.trim().toLowerCase();
  return !(value === '0' || value === 'false' || value === 'no' || value === 'off');
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

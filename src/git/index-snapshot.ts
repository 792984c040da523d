import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { parseIndex, type StoredIndexEntry } from './index-read.js';
import { checkPath } from './paths.js';
import type { Repo } from './repo.js';

/** The index as a status read it: the bytes (to patch stat data into), their file's mtime (racy-clean rule), the entries. */
export interface IndexSnapshot {
  data: Buffer;
  mtimeNs: bigint;
  entries: StoredIndexEntry[];
}

/**
 * Reads and parses the index once. `none` when there is no index file yet, `unsupported` when
 * our reader does not take it (see parseIndex).
 */
export async function readIndexSnapshot(r: Repo): Promise<IndexSnapshot | 'none' | 'unsupported'> {
  let handle;
  try {
    handle = await open(join(r.gitdir, 'index'), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
  try {
    // The time stamp of the very file read, for the racy-clean rule.
    const { mtimeNs } = await handle.stat({ bigint: true });
    const data = await handle.readFile();
    const parsed = parseIndex(data);
    if ('unsupported' in parsed) return 'unsupported';
    return { data, mtimeNs, entries: parsed.entries };
  } finally {
    await handle.close();
  }
}

const validPath = (path: string) => {
  try {
    return checkPath(path) === path;
  } catch {
    return false;
  }
};

/**
 * Whether every entry is one the fast status reading takes: no side of an unresolved merge, no
 * submodule, no path git would refuse.
 */
export function plainEntries(entries: readonly StoredIndexEntry[]): boolean {
  return entries.every((entry) => entry.stage === 0 && entry.mode >>> 12 !== 0o16 && validPath(entry.path));
}

import { open } from 'node:fs/promises';
import * as git from 'isomorphic-git';
import { fastPathsEnabled } from '../fast-paths.js';
import { join } from 'node:path';
import { parseIndex, type StoredIndexEntry } from '../format/index-read.js';
import { checkPath } from '../format/paths.js';
import type { Repo } from '../repo.js';
import type { StatOptions } from './stat-data.js';

/** The index as a status read it: the bytes (to patch stat data into), their file's mtime (racy-clean rule), the entries. */
export interface IndexSnapshot {
  data: Buffer;
  mtimeNs: bigint;
  entries: StoredIndexEntry[];
  /** The `TREE` extension's data, when the index has one. */
  cacheTree?: Buffer;
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
    return { data, mtimeNs, entries: parsed.entries, ...(parsed.cacheTree ? { cacheTree: parsed.cacheTree } : {}) };
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
 * submodule, no path git would refuse, and no file that is also a folder of another entry (git
 * never writes such an index, isomorphic-git's `add` of a folder over a file can; its own
 * statusMatrix then decides what it means).
 */
export function plainEntries(entries: readonly StoredIndexEntry[]): boolean {
  if (!entries.every((entry) => entry.stage === 0 && entry.mode >>> 12 !== 0o16 && validPath(entry.path))) return false;
  const paths = new Set(entries.map((entry) => entry.path));
  for (const { path } of entries) {
    for (let end = path.indexOf('/'); end > 0; end = path.indexOf('/', end + 1)) {
      if (paths.has(path.slice(0, end))) return false;
    }
  }
  return true;
}

/** What a fast status reading starts from: the stat options of the repository and its index. */
export interface StatusInputs {
  options: StatOptions;
  /** The index as read, or `none` when there is no index file yet. */
  index: IndexSnapshot | 'none';
  entries: StoredIndexEntry[];
}

/**
 * The stat options and the index for a fast status reading, or null where it leaves the work to
 * isomorphic-git: `core.autocrlf` (isomorphic-git hashes files with CRLF turned into LF under
 * this setting alone), an index our reader does not take, or entries `plainEntries` refuses.
 */
export async function fastStatusInputs(r: Repo): Promise<StatusInputs | null> {
  if (!fastPathsEnabled()) return null;
  if ((await git.getConfig({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, path: 'core.autocrlf' })) === 'true') return null;
  const options: StatOptions = {
    filemode: (await git.getConfig({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, path: 'core.filemode' })) !== false,
    trustino: process.platform !== 'win32',
  };
  const index = await readIndexSnapshot(r);
  if (index === 'unsupported') return null;
  const entries = index === 'none' ? [] : index.entries;
  if (!plainEntries(entries)) return null;
  return { options, index, entries };
}

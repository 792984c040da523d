import { join } from 'node:path';
import { blobObject, type GitObject } from '../format/object-format.js';
import { gitMode, storedStat } from '../index/stat-data.js';
import { contentOrNull, lstatOrNull } from './working-file.js';

/** A working-tree file as `git add` stages it: its blob, the mode to record and the stat fields for the index. */
export interface WorkingBlob {
  blob: GitObject;
  mode: number;
  /** storedStat of the `lstat` taken before reading, so a later write shows as a stat change. */
  stat: number[];
}

const MODE_LINK = 0o120000;
const MODE_FILE = 0o100644;

/**
 * The working tree's file (or symbolic link) at each of `paths`, hashed as a blob; null where
 * there is none (missing, a folder, or gone meanwhile). With `core.filemode` off, a file keeps
 * the mode its index entry has (`indexMode`), as git does, and a new one is `100644`.
 */
export async function workingBlobs(
  dir: string,
  paths: Iterable<string>,
  options: { filemode: boolean; indexMode: (path: string) => number | undefined },
): Promise<Map<string, WorkingBlob | null>> {
  const found = new Map<string, WorkingBlob | null>();
  for (const path of paths) {
    const full = join(dir, path);
    const stat = lstatOrNull(full);
    const content = stat !== null && (stat.isFile() || stat.isSymbolicLink()) ? await contentOrNull(full, stat) : null;
    if (stat === null || content === null) {
      found.set(path, null);
      continue;
    }
    const indexMode = options.indexMode(path);
    const mode = stat.isSymbolicLink()
      ? MODE_LINK
      : options.filemode
        ? gitMode(Number(stat.mode))
        : indexMode !== undefined && indexMode >>> 12 === 0o10
          ? indexMode
          : MODE_FILE;
    found.set(path, { blob: blobObject(content), mode, stat: storedStat(stat) });
  }
  return found;
}

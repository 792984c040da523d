import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Asked for each folder and blob found; false leaves it out (a folder with everything under it).
 * Not asked for what is neither (sockets, FIFOs, devices): git stores none of them.
 */
export type Keep = (path: string) => boolean | Promise<boolean>;

/** Entries read per turn of the event loop, so that a large tree never blocks it for long. */
const ENTRIES_PER_TURN = 2000;

/**
 * The paths of every file and symbolic link under `dir` (`/`-separated, relative to it), with one
 * `readdir` (with file types) per folder and no `stat`. Symbolic links are not followed.
 * Synchronous calls, as for a fresh checkout: a readdir is cheaper than a round trip to the
 * threadpool.
 */
export async function walkWorkingTree(dir: string, keep: Keep): Promise<Set<string>> {
  const found = new Set<string>();
  const folders = [''];
  let read = 0;
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let entries;
    try {
      entries = readdirSync(folder === '' ? dir : join(dir, folder), { withFileTypes: true });
    } catch (error) {
      // Gone or replaced by a file since its parent was read: nothing to list there.
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) continue;
      throw error;
    }
    for (const entry of entries) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      const isFolder = entry.isDirectory();
      if (!(isFolder || entry.isFile() || entry.isSymbolicLink()) || !(await keep(path))) continue;
      if (isFolder) folders.push(path);
      else found.add(path);
    }
    read += entries.length;
    if (read >= ENTRIES_PER_TURN) {
      read = 0;
      await nextTurn();
    }
  }
  return found;
}

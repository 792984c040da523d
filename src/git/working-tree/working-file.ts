import { type BigIntStats, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * What a file that vanished or changed kind between a listing and a read throws: gone, a folder
 * on the way, a folder read as a file, a link read as a file (or the reverse).
 */
const GONE = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EINVAL']);

/** Larger files are read asynchronously: reading one must not hold the event loop for long. */
const READ_SYNC_MAX = 1 << 20;

const gone = (error: unknown) => GONE.has((error as NodeJS.ErrnoException).code ?? '');

/** The `lstat` of `path` (bigint, for the index's nanoseconds); null when nothing is there. */
export function lstatOrNull(path: string): BigIntStats | null {
  try {
    return lstatSync(path, { bigint: true });
  } catch (error) {
    if (gone(error)) return null;
    throw error;
  }
}

/**
 * A blob's content for the file `stat` describes: the file's bytes, or a symbolic link's target.
 * Null when it vanished or changed kind meanwhile. Synchronous below 1 MiB: for small files a
 * read costs less than a trip to the threadpool.
 */
export async function contentOrNull(path: string, stat: BigIntStats): Promise<Uint8Array | null> {
  try {
    if (stat.isSymbolicLink()) return readlinkSync(path, { encoding: 'buffer' });
    return stat.size > READ_SYNC_MAX ? await readFile(path) : readFileSync(path);
  } catch (error) {
    if (gone(error)) return null;
    throw error;
  }
}

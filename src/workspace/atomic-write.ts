import { randomBytes } from 'node:crypto';
import { chmod, rename, rm, writeFile } from 'node:fs/promises';

export interface AtomicWriteOptions {
  /** Sync the data to disk before the rename (what must survive a power cut, like the push journal). @default false */
  flush?: boolean;
  /** Mode of the new file, whatever the umask. */
  mode?: number;
}

/**
 * The one atomic file write outside git's own files: `data` goes to a temporary file beside
 * `path`, then is renamed over it, so a reader or a crash sees the old file or the new one, never
 * half of one. The temporary name is the writer's own (process id and random bytes): two writers
 * of one path at once never write into each other's temporary file, and the last rename wins
 * whole. The temporary file is removed when the write fails.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const temporary = `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, data, { flush: options.flush === true, ...(options.mode !== undefined ? { mode: options.mode } : {}) });
    if (options.mode !== undefined) await chmod(temporary, options.mode);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

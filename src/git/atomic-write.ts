import { rename, rm, writeFile } from 'node:fs/promises';

/**
 * git's atomic write (the git layer imports no other layer, so it keeps this one beside the
 * workspace's `writeFileAtomic`): `data` goes to `temporary`, named by the caller as git would
 * name it (a pack's `tmp_*`, a dot file in the working tree), then is renamed over `path`. A
 * reader sees the old file or the new one; the temporary file never stays behind.
 */
export async function writeThroughTemporary(
  temporary: string,
  path: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  try {
    await writeFile(temporary, data, options.mode !== undefined ? { mode: options.mode } : {});
    await rename(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}

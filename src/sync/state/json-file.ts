import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../../workspace/index.js';

/**
 * Writes `value` as JSON to `path` through a temporary file renamed over it: a crash or a reader
 * sees the old file or the new one, never half of one. `flush` syncs the data to disk before the
 * rename (for what must survive a power cut, like the push journal); `mode` is applied to the new
 * file whatever the umask.
 */
export async function writeJsonFile(
  path: string,
  value: unknown,
  options: { pretty?: boolean; flush?: boolean; mode?: number } = {},
): Promise<void> {
  const text = `${JSON.stringify(value, null, options.pretty === false ? undefined : 2)}\n`;
  await writeFileAtomic(path, text, {
    ...(options.flush === true ? { flush: true } : {}),
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
  });
}

/**
 * Removes a file {@link writeJsonFile} wrote, with the temporary files of its writes that a kill
 * cut short (`<name>.<pid>-<hex>.tmp` beside it, named by writeFileAtomic), which nothing else
 * removes: a push killed while writing its journal left one in `.git/docsync/journal/` for good
 * (test/cli/kill-commands.test.ts).
 */
export async function removeJsonFile(path: string): Promise<void> {
  await rm(path, { force: true });
  const name = basename(path);
  const leftover = (entry: string) => entry.startsWith(`${name}.`) && /^\.\d+-[0-9a-f]+\.tmp$/.test(entry.slice(name.length));
  const entries = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const entry of entries.filter(leftover)) await rm(join(dirname(path), entry), { force: true });
}

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

import { lstatSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes `content` at `path` under `dir` the way an editor or a checkout would end up: a file
 * (or a link, dangling ones included) where a folder on the way must be, and a folder where the
 * file goes, are removed first. Returns the removed files on the way.
 */
export async function writeReplacing(dir: string, path: string, content: string | Uint8Array): Promise<string[]> {
  const removed: string[] = [];
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i += 1) {
    const parent = parts.slice(0, i).join('/');
    // lstat, not existsSync: a symbolic link to nothing is in the way too.
    const there = lstatSync(join(dir, parent), { throwIfNoEntry: false });
    if (there !== undefined && !there.isDirectory()) {
      await rm(join(dir, parent));
      removed.push(parent);
    }
  }
  await rm(join(dir, path), { recursive: true, force: true });
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), content);
  return removed;
}

import fs from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { sep } from 'node:path';

let written = 0;

/**
 * `writeFile` for isomorphic-git that replaces a file inside a `.git` folder through a temporary
 * file renamed over it. isomorphic-git writes the index, refs and objects in place (truncate,
 * then write): a process killed in between left an empty `.git/index` that every later command
 * failed to read ("Index file is empty"; test/cli/kill-commands.test.ts). The temporary file is
 * in the `.git` folder itself, where git ignores names it does not know (never under `refs/`,
 * where a leftover would read as a branch). Working-tree files are written as they were.
 */
async function writeInGitAtomically(path: fs.PathLike | fs.promises.FileHandle, data: string | Uint8Array, options?: fs.WriteFileOptions) {
  const target = typeof path === 'string' ? path : undefined;
  const at = target?.lastIndexOf(`${sep}.git${sep}`) ?? -1;
  if (target === undefined || at < 0) return writeFile(path, data, options);
  written += 1;
  const temp = `${target.slice(0, at + 5)}${sep}docsync-write-${process.pid}-${written}.tmp`;
  try {
    await writeFile(temp, data, options);
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** node's fs as isomorphic-git takes it, with {@link writeInGitAtomically} for `promises.writeFile`. */
export const gitFs: typeof fs = { ...fs, promises: { ...fs.promises, writeFile: writeInGitAtomically } } as typeof fs;

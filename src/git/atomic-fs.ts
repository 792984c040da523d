import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { appendFile, chmod, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';

/**
 * The one atomic write of the git layer: `data` goes to `temporary` (created exclusively, after
 * removing whatever a killed write left there, so a symbolic link planted at that name is never
 * written through), then is renamed over `path`. The rename replaces a symbolic link at `path`
 * instead of following it. A reader, or a kill, sees the old file or the new one, never half of
 * one; a failed write removes its temporary file. `mode` sets the new file's permission bits
 * exactly (no umask).
 */
export async function writeThroughTemporary(
  temporary: string,
  path: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  await rm(temporary, { force: true });
  try {
    await writeFile(temporary, data, { flag: 'wx', ...(options.mode !== undefined ? { mode: options.mode } : {}) });
    if (options.mode !== undefined) await chmod(temporary, options.mode);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

const TEMPORARY_SUFFIX = '.docsync-tmp';

/**
 * The temporary file {@link replaceFile} writes `path` through: in the same folder (a rename
 * does not cross file systems), and named after `path` (a dot file, `.<name>.docsync-tmp`), so
 * that whoever knows which paths a killed command was writing can remove what it left
 * (removeTemporaryFiles) without walking the folder. A name too long for that is hashed.
 */
export function temporaryOf(path: string): string {
  const name = basename(path);
  const temporary = `.${name}${TEMPORARY_SUFFIX}`;
  const fits = Buffer.byteLength(temporary) <= 255;
  return join(dirname(path), fits ? temporary : `.${createHash('sha1').update(name).digest('hex')}${TEMPORARY_SUFFIX}`);
}

/**
 * Replaces a working-tree file atomically (see {@link writeThroughTemporary}), keeping its
 * permission bits (the executable bit above all) unless `mode` is given; a new file, or one that
 * replaces a symbolic link, gets the default mode. The file's folder must exist.
 */
export async function replaceFile(path: string, data: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  let mode = options.mode;
  if (mode === undefined) {
    const existing = await lstat(path).catch(() => undefined);
    if (existing?.isFile() === true) mode = existing.mode & 0o7777;
  }
  await writeThroughTemporary(temporaryOf(path), path, data, mode !== undefined ? { mode } : {});
}

/** Removes the temporary files a killed {@link replaceFile} of these working-tree paths may have left. */
export async function removeTemporaryFiles(dir: string, paths: Iterable<string>): Promise<void> {
  for (const path of paths) await rm(temporaryOf(join(dir, ...path.split('/'))), { force: true });
}

/** The line of `.git/info/exclude` that hides {@link temporaryOf}'s names from git, isomorphic-git and docsync's own walks. */
export const TEMPORARY_EXCLUDE = `.*${TEMPORARY_SUFFIX}`;
const excluded = new Set<string>();

/**
 * Makes git leave out the temporary files of working-tree writes (once per repository and
 * process): one a kill left behind is never an untracked file that `git add -A`, or the daemon's
 * commit of the writer's edits, would take. The line is added to `.git/info/exclude`, never
 * removed; the user's lines stay as they are.
 */
export async function excludeTemporaryFiles(gitdir: string): Promise<void> {
  if (excluded.has(gitdir)) return;
  const path = join(gitdir, 'info', 'exclude');
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  if (!text.split(/\r?\n/).includes(TEMPORARY_EXCLUDE)) {
    await mkdir(dirname(path), { recursive: true });
    const line = `# docsync: temporary files of interrupted writes\n${TEMPORARY_EXCLUDE}\n`;
    await appendFile(path, text === '' || text.endsWith('\n') ? line : `\n${line}`);
  }
  excluded.add(gitdir);
}

let written = 0;

/**
 * `writeFile` for isomorphic-git, which writes files in place (truncate, then write): a process
 * killed in between left an empty `.git/index` that every later command failed to read ("Index
 * file is empty"; test/cli/kill-commands.test.ts), or half a page in the working tree that the
 * next run took for the writer's edit (test/sync/interrupted-writes.test.ts). A file inside a
 * `.git` folder goes through a temporary file in the `.git` folder itself, where git ignores
 * names it does not know (never under `refs/`, where a leftover would read as a branch); a
 * working-tree file through {@link replaceFile}, with the mode isomorphic-git asks for (0o777
 * for an executable, less the umask as git does) or the file's own.
 */
async function writeAtomically(path: fs.PathLike | fs.promises.FileHandle, data: string | Uint8Array, options?: fs.WriteFileOptions) {
  const target = typeof path === 'string' ? path : undefined;
  if (target === undefined || (typeof options === 'object' && options !== null && options.flag !== undefined && options.flag !== 'w')) {
    return writeFile(path, data, options);
  }
  const asked = typeof options === 'object' && options?.mode !== undefined ? Number(options.mode) & ~process.umask() : undefined;
  const mode = asked !== undefined ? { mode: asked } : {};
  const at = target.lastIndexOf(`${sep}.git${sep}`);
  if (at < 0) return replaceFile(target, data, mode);
  written += 1;
  return writeThroughTemporary(`${target.slice(0, at + 5)}${sep}docsync-write-${process.pid}-${written}.tmp`, target, data, mode);
}

/** node's fs as isomorphic-git takes it, with {@link writeAtomically} for `promises.writeFile`. */
export const gitFs: typeof fs = { ...fs, promises: { ...fs.promises, writeFile: writeAtomically } } as typeof fs;

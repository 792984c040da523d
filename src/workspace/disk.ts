import { mkdir, readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { WorkspaceError } from './errors.js';
import type { FileMap } from './types.js';

const TEXT = /\.(md|ya?ml)$/i;

/**
 * Reads a folder into a file map: markdown and YAML files as text, others as bytes. `.git` is
 * skipped. The one reader of the workspace layer; everything else is pure over file maps.
 */
export async function loadFolder(dir: string): Promise<FileMap> {
  const files: FileMap = new Map();
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git') await walk(full);
      } else if (entry.isFile()) {
        const path = relative(dir, full).split(sep).join('/');
        files.set(path, TEXT.test(path) ? await readFile(full, 'utf8') : new Uint8Array(await readFile(full)));
      }
    }
  };
  await walk(dir);
  return files;
}

/**
 * Writes a file map into a folder. Each file is written to a temporary file beside it and
 * renamed over the old one, so a reader never sees half a file. Files not in the map are left
 * alone (deleting is the caller's decision). Paths that leave the folder are refused.
 */
export async function saveFolder(dir: string, files: FileMap): Promise<void> {
  for (const [path, value] of files) {
    const target = join(dir, ...path.split('/'));
    if (path.split('/').some((p) => p === '..' || p === '') || relative(dir, target).startsWith('..')) {
      throw new WorkspaceError('path-outside-folder', `saveFolder: path \`${path}\` leaves the folder ${dir}`);
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFileAtomic(target, value);
  }
}

import { closeSync, linkSync, lstatSync, mkdirSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { GitError } from '../errors.js';
import { type IndexEntry, MODE_FILE, renderIndex } from '../format/index-file.js';
import { cacheTreeOf, indexFolders } from '../format/index-folders.js';
import { excludeTemporaryFiles, temporaryOf } from '../atomic-fs.js';
import { withLockFile } from '../lock-file.js';
import type { Repo } from '../repo.js';

/**
 * Files written per turn of the event loop. Small files are written with synchronous calls: on a
 * clone of 5,000 pages that takes a third of the time of promise-based writes (whose cost is
 * mostly the round trips to the threadpool, not the disk), and yielding between batches keeps
 * each pause of the event loop to a few milliseconds.
 */
const FILES_PER_TURN = 200;

/**
 * Refuses (`dirty-working-tree`, the entries in `data.paths`) unless the working tree holds
 * nothing but `.git` and the index has never been written: the only state in which writing a
 * commit's files straight to disk cannot overwrite anything.
 */
export async function assertEmptyWorkingTree(r: Repo): Promise<void> {
  const paths = (await readdir(r.dir)).filter((name) => name !== '.git').sort();
  if (
    await stat(join(r.gitdir, 'index')).then(
      () => true,
      () => false,
    )
  )
    paths.unshift('.git/index');
  if (paths.length > 0) {
    throw new GitError('dirty-working-tree', `cannot check out into ${r.dir}: the working tree is not empty (${paths.join(', ')})`, {
      dir: r.dir,
      paths,
    });
  }
}

/**
 * Writes `files` (the content of the commit HEAD names) into an empty working tree and writes
 * the index for them in one pass, with each file's `lstat` data so that git and isomorphic-git
 * see a clean tree without hashing a file again. What `git checkout` of a fresh clone does, with
 * the blobs' bytes and oids already in hand instead of read back from the object store.
 *
 * The index gets the cache tree of `tree` (the commit's tree), as git's checkout writes it, so the
 * first status hashes no folder (see headBlobs); it is left out unless the files make that tree.
 *
 * Files are created exclusively: a file that appeared meanwhile is an error, never overwritten.
 * Each appears whole (see createFile).
 */
export async function populateWorkingTree(
  r: Repo,
  files: readonly { path: string; oid: string; content: Uint8Array }[],
  tree?: string,
): Promise<void> {
  await excludeTemporaryFiles(r.gitdir);
  const folders = new Set<string>();
  for (const { path } of files) {
    for (let folder = dirname(path); folder !== '.' && !folders.has(folder); folder = dirname(folder)) folders.add(folder);
  }
  // Parents before children, so each mkdir is one call. (`recursive` only so that two folder
  // names a case-insensitive file system takes for one are not an error, as with git.)
  for (const folder of [...folders].sort((a, b) => a.length - b.length)) mkdirSync(join(r.dir, folder), { recursive: true });

  const entries: IndexEntry[] = [];
  for (const [i, { path, oid, content }] of files.entries()) {
    if (i > 0 && i % FILES_PER_TURN === 0) await nextTurn();
    entries.push({ path, oid, stat: createFile(r, path, content) });
  }
  const cacheTree = cacheTreeOf(
    indexFolders(
      files.map((file) => ({ ...file, mode: MODE_FILE })),
      null,
    ),
  );
  await writeIndex(r, renderIndex(entries, cacheTree.oid === tree ? cacheTree : undefined));
}

/**
 * Writes one file of the checkout through a temporary file beside it (named as replaceFile names
 * it), then links it in under its name, which fails where a file exists: a kill leaves the file
 * whole or absent, never half written, and nothing is overwritten. Returns the file's `lstat`
 * once in place (the link changed its ctime): what git records too.
 */
function createFile(r: Repo, path: string, content: Uint8Array) {
  const target = join(r.dir, path);
  const temporary = temporaryOf(target);
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, 'wx');
  try {
    for (let written = 0; written < content.length;) written += writeSync(fd, content, written);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new GitError(
      'dirty-working-tree',
      `cannot check out ${path} in ${r.dir}: the file exists already (another program wrote it, or the file system ignores case and the commit has two paths that differ only in case)`,
      { dir: r.dir, paths: [path] },
      { cause: error },
    );
  } finally {
    unlinkSync(temporary);
  }
  return lstatSync(target, { bigint: true });
}

/** Replaces the index as git does: through `index.lock`, created exclusively, renamed over it. */
async function writeIndex(r: Repo, data: Buffer): Promise<void> {
  const path = join(r.gitdir, 'index');
  await withLockFile(
    path,
    async (lock) => lock.replace(data),
    (error) => {
      if (error.code !== 'EEXIST') throw error;
      throw new GitError(
        'ref-locked',
        `cannot write the index of ${r.dir}: ${path}.lock exists (another git process is running, or remove it if one crashed)`,
        { dir: r.dir, path: `${path}.lock` },
      );
    },
  );
}

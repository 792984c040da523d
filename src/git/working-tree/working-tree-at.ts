import * as git from 'isomorphic-git';
import { headBlobsNear, type Near } from '../index/head-blobs-near.js';
import type { StoredIndexEntry } from '../format/index-read.js';
import { optionalLocksAllowed, patchStatData, writeRefreshedIndex } from '../index/index-refresh.js';
import { fastStatusInputs } from '../index/index-snapshot.js';
import { PathScope } from '../format/path-scope.js';
import { comparePaths } from '../format/paths.js';
import { repo } from '../repo.js';
import { walkPaths } from './walk-paths.js';
import type { WorkingTreeChange } from './working-tree.js';
import { workingTreeOids } from './working-tree-oids.js';

/**
 * What workingTreeChanges(dir) reports at `paths` and under those that are folders (or were, in
 * HEAD or the index), in the same sorted form, for a caller that knows which paths changed
 * (a file watcher): `paths` are relative to the working tree and `/`-separated, files or folders,
 * present or removed. The cost follows them, not the repository's working tree: the index is
 * read once and hashed into trees (no tree of HEAD is read unless something is staged near the
 * paths), and only the paths (and the folders among them) are looked at on disk, with the same
 * stat-data shortcut, racy-clean rule, .gitignore rule and index refresh as the full walk.
 * @returns null where the full walk leaves the fast path for isomorphic-git's (core.autocrlf, an
 * unresolved merge, a submodule, an index our reader does not take, no commit yet): the caller
 * then asks workingTreeChanges.
 */
export async function workingTreeChangesAt(dir: string, paths: readonly string[]): Promise<WorkingTreeChange[] | null> {
  const r = await repo(dir);
  const scope = new PathScope(paths);
  const inputs = await fastStatusInputs(r);
  if (inputs === null) return null;
  const { options, index, entries } = inputs;

  const staged = new Map<string, StoredIndexEntry>();
  const indexNear: Near = { blobs: new Map(), folders: new Set() };
  for (const entry of entries) {
    if (scope.near(entry.path)) {
      staged.set(entry.path, entry);
      indexNear.blobs.set(entry.path, entry.oid);
    }
    for (const folder of scope.foldersNear(entry.path)) indexNear.folders.add(folder);
  }
  const head = await headBlobsNear(r, scope, entries, indexNear, index === 'none' ? undefined : index.cacheTree);
  if (head === null) return null;
  const folders = new Set([...head.folders, ...indexNear.folders]);
  // The full walk's rule, asked only near the paths: .gitignore for what neither HEAD nor the index knows.
  const files = await walkPaths(
    r.dir,
    scope.roots,
    (path) =>
      head.blobs.has(path) ||
      staged.has(path) ||
      folders.has(path) ||
      git.isIgnored({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, filepath: path }).then((ignored) => !ignored),
  );
  const workdir = await workingTreeOids(
    r.dir,
    files,
    { staged, head: head.blobs, indexMtimeNs: index === 'none' ? null : index.mtimeNs },
    options,
  );
  if (index !== 'none' && optionalLocksAllowed() && (workdir.racyVerified || workdir.updates.some((update) => 'stat' in update))) {
    await writeRefreshedIndex(r, index.data, patchStatData(index.data, workdir.updates));
  }

  const changes: WorkingTreeChange[] = [];
  for (const path of new Set([...head.blobs.keys(), ...workdir.oids.keys()])) {
    if (!scope.covers(path)) continue; // a file of HEAD on the way to a path
    const before = head.blobs.get(path);
    const now = workdir.oids.get(path);
    if (before === now) continue;
    changes.push({ path, status: before === undefined ? 'added' : now === undefined ? 'deleted' : 'modified' });
  }
  return changes.sort((a, b) => comparePaths(a.path, b.path));
}

import * as git from 'isomorphic-git';
import { headBlobs } from '../index/head-blobs.js';
import type { StoredIndexEntry } from '../format/index-read.js';
import { fastStatusInputs } from '../index/index-snapshot.js';
import { optionalLocksAllowed, patchStatData, writeRefreshedIndex } from '../index/index-refresh.js';
import type { Repo } from '../repo.js';
import { walkWorkingTree } from './walk-working-tree.js';
import { workingTreeOids } from './working-tree-oids.js';

/**
 * One row of isomorphic-git's statusMatrix: `head` 0 absent, 1 present; `workdir` 0 absent,
 * 1 same as HEAD, 2 different; `stage` 0 absent, 1 same as HEAD, 2 same as the working tree,
 * 3 different from both. Rows come in no particular order.
 */
export type StatusRow = [path: string, head: number, workdir: number, stage: number];

/**
 * isomorphic-git's `statusMatrix` of HEAD against the whole working tree, computed the way
 * `git status` does: the index file is read directly, the working tree listed with one readdir
 * per folder, each file with an index entry `lstat`ed, and only files whose stat data differs
 * from the entry's (or is racily clean) are read and hashed. HEAD's folders whose tree equals the
 * index's are not read, and the index's folders that its cache tree holds valid are not hashed.
 * Entries found unchanged with new stat data are refreshed in the index when it can be locked, as
 * both `git status` and statusMatrix do, unless optional locks are off (`optionalLocksAllowed`).
 *
 * What this reader does not take (an unborn branch, an index with unresolved merges, submodules,
 * a split or sparse index, a path git would refuse, `core.autocrlf`) goes through isomorphic-git's
 * statusMatrix itself, as does an index it cannot parse (which then fails there as it did).
 */
export async function statusRows(r: Repo): Promise<StatusRow[]> {
  const fast = await fastStatusRows(r);
  if (fast !== null) return fast;
  return git.statusMatrix({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, cache: r.cache, refresh: optionalLocksAllowed() });
}

/**
 * The fast half of statusRows; null when the repository holds something it leaves to
 * isomorphic-git (see statusRows).
 */
export async function fastStatusRows(r: Repo): Promise<StatusRow[] | null> {
  const inputs = await fastStatusInputs(r);
  if (inputs === null) return null;
  const { options, index, entries } = inputs;
  const head = await headBlobs(r, entries, index === 'none' ? undefined : index.cacheTree);
  if (head === null) return null;

  const staged = new Map(entries.map((entry) => [entry.path, entry]));
  const folders = new Set<string>();
  for (const path of [...head.keys(), ...staged.keys()]) {
    for (let end = path.lastIndexOf('/'); end > 0 && !folders.has(path.slice(0, end)); end = path.lastIndexOf('/', end - 1))
      folders.add(path.slice(0, end));
  }
  // statusMatrix asks .gitignore only about paths neither HEAD nor the index knows, folders included.
  const files = await walkWorkingTree(
    r.dir,
    (path) =>
      head.has(path) ||
      staged.has(path) ||
      folders.has(path) ||
      git.isIgnored({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, filepath: path }).then((ignored) => !ignored),
  );
  const indexMtimeNs = index === 'none' ? null : index.mtimeNs;
  const workdir = await workingTreeOids(r.dir, files, { staged, head, indexMtimeNs }, options);
  if (index !== 'none' && optionalLocksAllowed() && (workdir.racyVerified || workdir.updates.some((update) => 'stat' in update))) {
    await writeRefreshedIndex(r, index.data, patchStatData(index.data, workdir.updates));
  }
  return rowsOf(head, staged, workdir.oids);
}

/** statusMatrix's numbers: each oid's position among (HEAD, working tree, index), 0 when absent. */
function rowsOf(head: Map<string, string>, staged: Map<string, StoredIndexEntry>, workdir: Map<string, string>): StatusRow[] {
  const rows: StatusRow[] = [];
  const row = (path: string) => {
    const h = head.get(path);
    const w = workdir.get(path);
    const s = staged.get(path)?.oid;
    rows.push([path, h === undefined ? 0 : 1, w === undefined ? 0 : w === h ? 1 : 2, s === undefined ? 0 : s === h ? 1 : s === w ? 2 : 3]);
  };
  // Each path once, without a set of all of them: 5,000 files made that set the costliest step.
  for (const path of head.keys()) row(path);
  for (const path of staged.keys()) if (!head.has(path)) row(path);
  for (const path of workdir.keys()) if (!head.has(path) && !staged.has(path)) row(path);
  return rows;
}

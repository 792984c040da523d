import type { TreeEntry } from 'isomorphic-git';
import { comparePaths } from '../format/paths.js';
import { readBlobBytes, readTreeOids } from '../objects/read-tree.js';
import { readTreeEntries } from '../objects/fast-read.js';
import { detectRenames, type RenameOptions, type Side } from './renames.js';
import { notFoundAs, type Repo, repo } from '../repo.js';

export type TreeChange =
  | { path: string; status: 'added'; newOid: string }
  | { path: string; status: 'modified'; oldOid: string; newOid: string }
  | { path: string; status: 'deleted'; oldOid: string }
  /** `path` is `to`; a similarity below 100 means the content changed as well. */
  | { path: string; status: 'renamed'; from: string; to: string; similarity: number; oldOid: string; newOid: string };

export interface DiffOptions extends RenameOptions {
  /** Pair deleted and added files into renames. @default true */
  renames?: boolean;
}

/**
 * The files that differ between two commits (or trees), by blob oid, recursively: what
 * `git diff --name-status -M<minSimilarity>% from to` lists, sorted by path (a rename by its
 * new path). `from` null diffs against the empty tree: everything is added.
 *
 * File modes are ignored (the workspace has no executable bits); submodule entries are skipped.
 * Subtrees with the same oid on both sides are not read, so a small change to a large
 * repository reads little more than the folders on the changed paths.
 */
export async function diffTrees(dir: string, from: string | null, to: string, options: DiffOptions = {}): Promise<TreeChange[]> {
  const r = await repo(dir);
  const deleted: Side[] = [];
  const added: Side[] = [];
  const modified: TreeChange[] = [];
  await compare(r, from, to, '', { deleted, added, modified });
  const byPath = (a: Side, b: Side) => comparePaths(a.path, b.path);
  deleted.sort(byPath);
  added.sort(byPath);

  const renames = options.renames === false ? [] : await detectRenames(deleted, added, (oid) => readBlobBytes(r, oid), options);
  const renamedFrom = new Set(renames.map((x) => x.from));
  const renamedTo = new Set(renames.map((x) => x.to));
  const changes: TreeChange[] = [
    ...modified,
    ...deleted.filter((d) => !renamedFrom.has(d.path)).map((d): TreeChange => ({ path: d.path, status: 'deleted', oldOid: d.oid })),
    ...added.filter((a) => !renamedTo.has(a.path)).map((a): TreeChange => ({ path: a.path, status: 'added', newOid: a.oid })),
    ...renames.map((x): TreeChange => ({ path: x.to, status: 'renamed', ...x })),
  ];
  return changes.sort((a, b) => comparePaths(a.path, b.path));
}

interface Found {
  deleted: Side[];
  added: Side[];
  modified: TreeChange[];
}

async function entriesOf(r: Repo, oid: string | null): Promise<Map<string, TreeEntry>> {
  if (oid === null) return new Map();
  const tree = await notFoundAs(r, `tree of ${oid}`, () => readTreeEntries(r, oid));
  return new Map(tree.map((entry) => [entry.path, entry]));
}

async function compare(r: Repo, from: string | null, to: string | null, prefix: string, found: Found): Promise<void> {
  const [before, after] = [await entriesOf(r, from), await entriesOf(r, to)];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const path = prefix + name;
    const a = before.get(name);
    const b = after.get(name);
    if (a?.type === 'tree' && b?.type === 'tree') {
      if (a.oid !== b.oid) await compare(r, a.oid, b.oid, `${path}/`, found);
    } else if (a?.type === 'blob' && b?.type === 'blob') {
      if (a.oid !== b.oid) found.modified.push({ path, status: 'modified', oldOid: a.oid, newOid: b.oid });
    } else {
      // One side missing, or a file replaced by a folder (or the reverse): all out, all in.
      await collect(r, a, path, found.deleted);
      await collect(r, b, path, found.added);
    }
  }
}

async function collect(r: Repo, entry: TreeEntry | undefined, path: string, into: Side[]): Promise<void> {
  if (entry?.type === 'blob') into.push({ path, oid: entry.oid });
  if (entry?.type === 'tree') {
    for (const [sub, blob] of await readTreeOids(r, entry.oid)) into.push({ path: `${path}/${sub}`, oid: blob.oid });
  }
}

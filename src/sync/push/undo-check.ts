import { diffTrees, isAncestor, isGitError, log, readBlob, readFileAt, type TreeChange } from '../../git/index.js';
import { SyncError } from '../errors.js';

/**
 * Refuses, as `git push` refuses a non-fast-forward, a push from a branch that no longer contains
 * the platform's changes a pull brought into it (`pulled`: each remote commit a pull merged; a
 * `git reset` can take the branch back before it): its diff against the synced content would
 * send those changes' undoing as the writer's own edits. The files the platform changed there
 * that the branch does not hold are named. `--force` pushes anyway.
 */
export async function refuseUndoingRemote(
  dir: string,
  branch: string,
  head: string,
  pulled: readonly (string | undefined)[],
): Promise<void> {
  for (const commit of pulled) {
    if (commit === undefined) continue;
    let contained: boolean;
    try {
      contained = await isAncestor(dir, commit, head);
    } catch (error) {
      if (isGitError(error, 'not-found')) continue; // an old state's commit, gone: nothing to compare with
      throw error;
    }
    if (contained) continue;
    const [info] = await log(dir, commit, 1);
    const parent = info?.parents[0];
    const brought = parent === undefined ? [] : await diffTrees(dir, parent, commit, { renames: false });
    const differs = new Set((await diffTrees(dir, commit, head, { renames: false })).map((c) => c.path));
    const undone: string[] = [];
    for (const change of brought) if (differs.has(change.path) && (await undoes(dir, change, head))) undone.push(change.path);
    if (undone.length === 0) continue;
    throw new SyncError(
      'would-undo-remote',
      `${branch} no longer holds changes made on the platform that a pull brought into it (was it reset?); pushing would undo them. Bring them back (docsync pull after git merge ${commit.slice(0, 12)}, or undo the reset), or push with --force to undo them on the platform`,
      undone.map((path) => `${path}: the platform's change would be undone`),
    );
  }
}

const decoder = new TextDecoder();

async function textAt(dir: string, commit: string, path: string): Promise<string | undefined> {
  try {
    return decoder.decode(await readFileAt(dir, commit, path));
  } catch (error) {
    if (isGitError(error, 'not-found')) return undefined;
    throw error;
  }
}

/**
 * The branch undoes what the platform changed in this file: a file the platform added or
 * deleted that the branch has the other way, a line the platform added that the branch's file
 * lacks, or one it removed that the branch's file still has (a branch that holds the platform's
 * lines and edited others does not count).
 */
async function undoes(dir: string, change: TreeChange, head: string): Promise<boolean> {
  const ours = await textAt(dir, head, change.path);
  if (change.status === 'added') return ours === undefined;
  if (change.status === 'deleted') return ours !== undefined;
  if (ours === undefined || change.status === 'renamed') return ours === undefined;
  const [before, after] = [decoder.decode(await readBlob(dir, change.oldOid)), decoder.decode(await readBlob(dir, change.newOid))];
  const [had, has, kept] = [new Set(before.split('\n')), new Set(after.split('\n')), new Set(ours.split('\n'))];
  const added = after.split('\n').filter((line) => line.trim() !== '' && !had.has(line));
  const removed = before.split('\n').filter((line) => line.trim() !== '' && !has.has(line));
  return added.some((line) => !kept.has(line)) || removed.some((line) => kept.has(line));
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { branchOid, currentBranch, diffTrees, readTreeFiles, workingTreeChanges } from '../../git/index.js';
import { folderPaths } from './changed-files.js';
import { adaptPlan } from './extensions.js';
import { planPush } from './plan/plan.js';
import { folderPrefix, readPushSides, renamedIndex, toIndex, type SkippedFile } from './read.js';
import type { BranchState } from '../state/state.js';

export interface Unpushed {
  /** Files committed on the branch since its last sync. */
  committed: { path: string; status: string }[];
  /** Files changed in the working tree and not committed (only when the branch is checked out). */
  uncommitted: { path: string; status: string }[];
  /** Page and file operations a push would send from the branch as it is now. */
  operations: number;
  /** Files a push would leave out (conflict markers, unreadable front matter, ...) and tree problems that stop it. */
  refused: SkippedFile[];
  /**
   * What a push leaves out because this server cannot take it (a group or link page without the
   * extensions): the push reported it and the branch keeps it; waiting for it would stop the
   * branch for good. Only known when the server's extensions are given.
   */
  unsendable: SkippedFile[];
}

/** True when the branch holds content its change request does not have. */
export const hasUnpushed = (u: Unpushed): boolean => u.operations > 0 || u.refused.length > 0;

/**
 * What a branch holds that its change request does not. The branch as it is now (its head, plus
 * uncommitted edits when checked out) is read as content and compared with the commit of the
 * last synced revision, as push compares them: so a file the folder format does not read (a
 * `.gitignore`) is not content to push, while an edited page, a new asset, a file left with
 * conflict markers, or (on a server with `git-files`) notes not listed in SUMMARY.md are.
 */
export async function unpushedChanges(
  dir: string,
  branch: string,
  synced: BranchState,
  extensions?: ReadonlySet<string>,
): Promise<Unpushed> {
  const head = await branchOid(dir, branch);
  const committed = head === null || head === synced.syncedCommit ? [] : await diffTrees(dir, synced.syncedCommit, head);
  const uncommitted = (await currentBranch(dir)) === branch ? await workingTreeChanges(dir) : [];
  const result: Unpushed = {
    committed: committed.map((c) => ({ path: c.path, status: c.status })),
    uncommitted: uncommitted.map((c) => ({ path: c.path, status: c.status })),
    operations: 0,
    refused: [],
    unsendable: [],
  };
  if (head === null || (committed.length === 0 && uncommitted.length === 0)) return result;

  const baseFiles = await readTreeFiles(dir, synced.syncedCommit);
  const localFiles = await readTreeFiles(dir, head);
  for (const change of uncommitted) {
    if (change.status === 'deleted') localFiles.delete(change.path);
    else localFiles.set(change.path, new Uint8Array(await readFile(join(dir, change.path))));
  }
  const sides = readPushSides(
    baseFiles,
    toIndex(synced.index),
    localFiles,
    renamedIndex(toIndex(synced.index), committed, folderPrefix(localFiles)),
  );
  result.refused = [...sides.blocking.map((reason) => ({ path: reason.split(':')[0]!, reason })), ...sides.skipped];
  if (sides.blocking.length > 0) return result;
  const planned = planPush(sides.remote, sides.local, { pathOf: (id) => sides.paths.get(id) ?? 'README.md' });
  if (extensions === undefined) {
    result.operations = planned.changes.length;
  } else {
    // Counted as push sends it to this server: what it cannot take is not waiting to be pushed.
    const adapted = adaptPlan(planned, sides.remote, sides.local, extensions, folderPaths(localFiles));
    result.operations = adapted.changes.length;
    result.unsendable = adapted.skipped;
  }
  return result;
}

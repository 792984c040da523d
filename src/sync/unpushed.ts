import { branchOid, currentBranch, diffTrees, workingTreeChanges } from '../git/index.js';
import type { BranchState } from './state.js';

export interface Unpushed {
  /** Files committed on the branch since its last sync. */
  committed: { path: string; status: string }[];
  /** Files changed in the working tree and not committed (only when the branch is checked out). */
  uncommitted: { path: string; status: string }[];
}

/**
 * What a branch holds that its change request does not: the branch head's content compared with
 * the commit of the last synced remote revision (content, not commit ids: a pull moves the head
 * without changing anything), plus uncommitted edits when it is checked out.
 */
export async function unpushedChanges(dir: string, branch: string, synced: BranchState): Promise<Unpushed> {
  const head = await branchOid(dir, branch);
  const committed = head === null || head === synced.syncedCommit ? [] : await diffTrees(dir, synced.syncedCommit, head);
  const uncommitted = (await currentBranch(dir)) === branch ? await workingTreeChanges(dir) : [];
  return {
    committed: committed.map((c) => ({ path: c.path, status: c.status })),
    uncommitted: uncommitted.map((c) => ({ path: c.path, status: c.status })),
  };
}

import type { Client } from '../client/index.js';
import { branchOid, currentBranch, diffTrees, workingTreeChanges } from '../git/index.js';
import { remoteHead } from './remote/heads.js';
import { readState } from './state/state.js';

export interface BranchStatus {
  branch: string;
  changeRequest?: number;
  current: boolean;
  /** Files committed on the branch since the last sync, not yet pushed. */
  committed: { path: string; status: string }[];
  /** Files changed in the working tree and not committed (checked-out branch only). */
  uncommitted: { path: string; status: string }[];
  /** Remote revision when it moved since the last sync: changes not yet pulled. */
  remoteAhead?: { from: string; to: string };
  /** The change request was merged or archived on the platform. */
  remoteStatus?: string;
  /** `main` only: the change request its commits were pushed to, not merged yet. */
  outbox?: number;
  /** Open comments on the branch's change request (`main`: on the space, and on its outbox change request). */
  openComments?: number;
}

/** Per tracked branch: local changes not yet pushed and remote changes not yet pulled. */
export async function status(client: Client, dir: string): Promise<BranchStatus[]> {
  const state = await readState(dir);
  const checkedOut = await currentBranch(dir);
  const result: BranchStatus[] = [];
  for (const [branch, synced] of Object.entries(state.branches)) {
    const local = await branchOid(dir, branch);
    // Commits on main that went to its outbox change request are pushed: measure from there.
    const pushedTo = synced.outbox ?? synced;
    const committed = local === null ? [] : await diffTrees(dir, pushedTo.syncedCommit, local);
    const uncommitted = branch === checkedOut ? await workingTreeChanges(dir) : [];
    const remote = await remoteHead(client, state.binding.spaceId, synced);
    const outboxHead =
      synced.outbox?.changeRequestId !== undefined ? await remoteHead(client, state.binding.spaceId, synced.outbox) : undefined;
    const openComments = remote.comments === undefined ? undefined : remote.comments + (outboxHead?.comments ?? 0);
    result.push({
      branch,
      ...(synced.changeRequestNumber !== undefined ? { changeRequest: synced.changeRequestNumber } : {}),
      current: branch === checkedOut,
      committed: committed.map((c) => ({ path: c.path, status: c.status })),
      uncommitted: uncommitted.map((c) => ({ path: c.path, status: c.status })),
      ...(remote.revision !== synced.remoteRevision ? { remoteAhead: { from: synced.remoteRevision, to: remote.revision } } : {}),
      ...(remote.status !== undefined && remote.status !== 'open' && remote.status !== 'draft' ? { remoteStatus: remote.status } : {}),
      ...(synced.outbox?.changeRequestNumber !== undefined ? { outbox: synced.outbox.changeRequestNumber } : {}),
      ...(openComments !== undefined ? { openComments } : {}),
    });
  }
  return result;
}

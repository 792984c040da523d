import { branchOid, currentBranch } from '../../git/index.js';
import { SyncError } from '../errors.js';
import type { BranchState, WorkspaceState } from '../state/state.js';

/** A local branch with the change request it maps to. */
export interface ChangeRequestBranch {
  branch: string;
  synced: BranchState;
  changeRequestId: string;
  changeRequestNumber: number;
}

/**
 * The change request branch a command acts on: `branch`, else the checked-out one. Refuses
 * `main` (the live content has no change request to merge or update) and branches docsync does
 * not know, saying what to do instead. `verb` names the command in messages.
 */
export async function targetBranch(
  dir: string,
  state: WorkspaceState,
  branch: string | undefined,
  verb: string,
): Promise<ChangeRequestBranch> {
  const name = branch ?? (await currentBranch(dir));
  if (name === null) throw new SyncError('no-branch', `no branch is checked out in ${dir}; name the branch: docsync ${verb} BRANCH`);
  const synced = state.branches[name];
  if (name === 'main' || (synced && synced.changeRequestId === undefined)) {
    throw new SyncError(
      'not-a-change-request',
      `${name} is the live content, not a change request; ${verb} works on a change request branch (cr/<number>-<subject>): check one out or name it`,
    );
  }
  if (!synced) {
    const exists = (await branchOid(dir, name)) !== null;
    throw new SyncError(
      'no-branch',
      exists
        ? `branch ${name} has no change request yet; run docsync push to open one`
        : `no branch ${name} in ${dir}; docsync cr list shows the change requests and their branches`,
    );
  }
  return { branch: name, synced, changeRequestId: synced.changeRequestId!, changeRequestNumber: synced.changeRequestNumber ?? 0 };
}

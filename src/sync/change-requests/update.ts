import { isApiError, type Client } from '../../client/index.js';
import { SyncError } from '../errors.js';
import { locateConflicts, parseConflicts, type RemoteConflict } from './conflicts.js';
import { pull, type BranchPull } from '../pull/pull.js';
import { readState } from '../state/state.js';
import { targetBranch } from './target-branch.js';

/** What `update` did: main's content brought into the change request (branch pulled), or conflicts. */
export type BranchUpdate =
  | {
      kind: 'updated';
      branch: string;
      changeRequest: number;
      /** The change request's head after the update (unchanged when it was up to date). */
      revision: string;
      /** The pull of the branch that followed. */
      pulled: BranchPull[];
    }
  | { kind: 'conflict'; branch: string; changeRequest: number; message: string; conflicts: RemoteConflict[] };

/**
 * Brings main's live content into the change request of `branch` (default: the checked-out
 * branch) through the API, then pulls the branch, merging the result into local commits as
 * `pull` does. An update the platform refuses for conflicts is a `conflict` value naming the
 * pages, and changes nothing.
 */
export async function update(client: Client, dir: string, branch?: string): Promise<BranchUpdate> {
  const state = await readState(dir);
  const target = await targetBranch(dir, state, branch, 'update');
  const { spaceId } = state.binding;
  const cr = await client.changeRequests.get(spaceId, target.changeRequestId);
  const base = { branch: target.branch, changeRequest: cr.number };
  if (cr.status === 'merged' || cr.status === 'archived' || target.synced.closed !== undefined) {
    const status = cr.status === 'merged' || cr.status === 'archived' ? cr.status : target.synced.closed!;
    const hint = status === 'archived' ? `; run docsync cr open ${target.branch} first` : '';
    throw new SyncError(
      'change-request-closed',
      `change request #${cr.number} of ${target.branch} is ${status}: there is nothing to update${hint}`,
    );
  }
  let revision: string;
  try {
    revision = (await client.changeRequests.update(spaceId, target.changeRequestId)).revision;
  } catch (error) {
    if (!isApiError(error, 409)) throw error;
    const conflicts = locateConflicts(parseConflicts(error.message), [
      target.synced.index,
      state.branches.main?.index ?? target.synced.index,
    ]);
    return { kind: 'conflict', ...base, message: error.message, conflicts };
  }
  const pulled = await pull(client, dir, { branches: [target.branch] });
  return { kind: 'updated', ...base, revision, pulled };
}

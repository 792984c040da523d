import { isApiError, type Client } from '../client/index.js';
import { locateConflicts, parseConflicts } from './merge-conflicts.js';
import { merge, type BranchMerge } from './merge.js';
import { pull } from './pull.js';
import { readState, writeState } from './state.js';

/**
 * Merges what `push` just sent from `branch`: a change request branch through `merge`, and
 * `main` through its outbox change request, which is then dropped so the next commits on main
 * open a new one. Either way `main` is pulled after.
 */
export async function mergePushed(client: Client, dir: string, branch: string): Promise<BranchMerge> {
  if (branch !== 'main') return merge(client, dir, branch);
  const state = await readState(dir);
  const outbox = state.branches.main?.outbox;
  if (outbox?.changeRequestId === undefined) throw new Error('mergePushed: main has no outbox change request (push first)');
  const base = { branch, changeRequest: outbox.changeRequestNumber ?? 0 };
  let revision: string;
  try {
    revision = (await client.changeRequests.merge(state.binding.spaceId, outbox.changeRequestId)).revision;
  } catch (error) {
    if (!isApiError(error, 409)) throw error;
    const conflicts = locateConflicts(parseConflicts(error.message), [outbox.index, state.branches.main!.index]);
    return { kind: 'conflict', ...base, message: error.message, conflicts };
  }
  delete state.branches.main!.outbox;
  await writeState(dir, state);
  const pulled = await pull(client, dir, { branches: ['main'] });
  return { kind: 'merged', ...base, revision, already: false, pulled };
}

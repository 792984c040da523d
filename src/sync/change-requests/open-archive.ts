import type { Client } from '../../client/index.js';
import type { ChangeRequestStatus } from '../../model/index.js';
import { branchOid, createBranch } from '../../git/index.js';
import { SyncError } from '../errors.js';
import { pull, type BranchPull } from '../pull/pull.js';
import { readState, writeState, type WorkspaceState } from '../state/state.js';
import { targetBranch } from './target-branch.js';
import { trackChangeRequest } from './track.js';

/** What `cr open` or `cr archive` did. */
export interface StatusChange {
  changeRequest: number;
  status: 'open' | 'archived';
  /** The local branch, or null when the change request has none (archiving one never cloned). */
  branch: string | null;
  /** For `open`: the pull of the branch followed again, or its creation. */
  pulled: BranchPull[];
}

/** Every status a change request can have: a number names one whatever its status. */
const STATUSES: readonly ChangeRequestStatus[] = ['open', 'draft', 'archived', 'merged'];

/**
 * The id of the change request with this number. The published API takes ids only (a number in
 * the path is our server's convenience, not the hosted API's), so the listings are searched.
 */
async function idOfNumber(client: Client, spaceId: string, number: number): Promise<string> {
  for (const status of STATUSES) {
    for await (const cr of client.changeRequests.list(spaceId, { status })) if (cr.number === number) return cr.id;
  }
  throw new SyncError('unknown-change-request', `the space has no change request #${number}; docsync cr list shows them`);
}

/** A branch docsync tracks, or a change request number (`12`, `#12`) with its branch if any. */
async function resolve(
  client: Client,
  dir: string,
  state: WorkspaceState,
  target: string,
  verb: string,
): Promise<{ ref: string; branch: string | null }> {
  const number = /^#?(\d+)$/.exec(target);
  if (number && state.branches[target] === undefined) {
    const n = Number(number[1]);
    const branch = Object.entries(state.branches).find(([, b]) => b.changeRequestNumber === n)?.[0] ?? null;
    return { ref: branch === null ? await idOfNumber(client, state.binding.spaceId, n) : state.branches[branch]!.changeRequestId!, branch };
  }
  const found = await targetBranch(dir, state, target, verb);
  return { ref: found.changeRequestId, branch: found.branch };
}

/**
 * Sets a change request's status through the API (`target`: its branch, or its number).
 * Archiving stops pull from following the branch (state `closed: "archived"`; the git branch
 * stays). Opening follows it again and pulls it, merging what the platform has into local
 * commits (a branch deleted with git is made again first); a change request with no branch yet
 * gets one, as for one opened on the platform.
 */
export async function setChangeRequestStatus(
  client: Client,
  dir: string,
  target: string,
  status: 'open' | 'archived',
): Promise<StatusChange> {
  const state = await readState(dir);
  const verb = status === 'open' ? 'cr open' : 'cr archive';
  const { ref, branch } = await resolve(client, dir, state, target, verb);
  const { spaceId } = state.binding;
  const current = await client.changeRequests.get(spaceId, ref);
  if (current.status === 'merged')
    throw new SyncError('change-request-closed', `change request #${current.number} is merged; its status can no longer change`);
  const cr = await client.changeRequests.patch(spaceId, current.id, { status });
  const result: StatusChange = { changeRequest: cr.number, status, branch, pulled: [] };
  if (status === 'archived') {
    if (branch !== null) {
      state.branches[branch] = { ...state.branches[branch]!, closed: 'archived' };
      await writeState(dir, state);
    }
    return result;
  }
  if (branch !== null) {
    const { closed: _closed, ...followed } = state.branches[branch]!;
    // A branch the writer deleted is made again where it was last synced; the pull then brings
    // what the change request got since.
    if ((await branchOid(dir, branch)) === null) await createBranch(dir, branch, followed.syncedCommit);
    state.branches[branch] = followed;
    await writeState(dir, state);
    return { ...result, pulled: await pull(client, dir, { branches: [branch] }) };
  }
  const main = state.branches.main;
  if (!main) throw new SyncError('damaged-state', `${dir} has no main branch in its docsync state; clone the space again`);
  const added = await trackChangeRequest(client, dir, spaceId, cr, { revision: main.remoteRevision, commit: main.syncedCommit });
  state.branches[added.branch] = added.state;
  await writeState(dir, state);
  return {
    ...result,
    branch: added.branch,
    pulled: [{ branch: added.branch, from: '', to: added.state.remoteRevision, changes: [], conflicts: [], created: true }],
  };
}

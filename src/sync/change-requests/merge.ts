import { isApiError, type Client } from '../../client/index.js';
import { SyncError } from '../errors.js';
import { locateConflicts, parseConflicts, type RemoteConflict } from './conflicts.js';
import { mergeOutbox } from './merge-outbox.js';
import { pull, type BranchPull } from '../pull/pull.js';
import { readState, writeState } from '../state/state.js';
import { currentBranch } from '../../git/index.js';
import { targetBranch } from './target-branch.js';
import { hasUnpushed, unpushedChanges, type Unpushed } from '../push/unpushed.js';
import type { SkippedFile } from '../push/read.js';

/** What `merge` did: merged (main pulled), or refused by the platform for conflicts. */
export type BranchMerge =
  | {
      kind: 'merged';
      branch: string;
      changeRequest: number;
      /** Main's revision after the merge. */
      revision: string;
      /** The change request had been merged already (on the platform): nothing was merged now. */
      already: boolean;
      /** The pull of `main` that followed. */
      pulled: BranchPull[];
      /** What the branch holds and this server cannot take (push reported it): main goes on without it, the branch keeps it. */
      notSent: SkippedFile[];
    }
  | { kind: 'conflict'; branch: string; changeRequest: number; message: string; conflicts: RemoteConflict[] };

/**
 * Merges the change request of `branch` (default: the checked-out branch) into the space's main
 * content through the API, then pulls `main`. The branch is then no longer followed by pull
 * (state `closed: "merged"`); the git branch stays. Refuses, before anything is sent, a branch
 * holding changes not pushed yet, so the platform never merges content older than the branch;
 * what the server cannot take at all (push reported it) does not stop the merge and is named in
 * `notSent`.
 * A merge the platform refuses for conflicts (409, or the hosted API's `result: "conflicts"`)
 * is a `conflict` value naming the pages, and changes nothing.
 */
export async function merge(client: Client, dir: string, branch?: string): Promise<BranchMerge> {
  const state = await readState(dir);
  const outbox = state.branches.main?.outbox;
  if ((branch ?? (await currentBranch(dir))) === 'main' && outbox?.changeRequestId !== undefined) {
    // Main's own commits wait in its outbox change request: merging main publishes them. Read it
    // first, so the server's extensions are known when what is unpushed is counted.
    await client.changeRequests.get(state.binding.spaceId, outbox.changeRequestId);
    const unpushed = await unpushedChanges(dir, 'main', outbox, client.capabilities.extensions);
    refuseUnpushed('main', outbox.changeRequestNumber ?? 0, unpushed);
    return mergeOutbox(client, dir, unpushed.unsendable);
  }
  const target = await targetBranch(dir, state, branch, 'merge');
  const { spaceId } = state.binding;
  const cr = await client.changeRequests.get(spaceId, target.changeRequestId);
  const base = { branch: target.branch, changeRequest: cr.number };
  if (cr.status === 'archived') {
    throw new SyncError(
      'change-request-closed',
      `change request #${cr.number} of ${target.branch} is archived; run docsync cr open ${target.branch} first`,
    );
  }
  let revision = cr.revisionMerged ?? '';
  const already = cr.status === 'merged';
  let notSent: SkippedFile[] = [];
  if (!already) {
    const unpushed = await unpushedChanges(dir, target.branch, target.synced, client.capabilities.extensions);
    refuseUnpushed(target.branch, cr.number, unpushed);
    notSent = unpushed.unsendable;
    try {
      revision = (await client.changeRequests.merge(spaceId, target.changeRequestId)).revision;
    } catch (error) {
      if (!isApiError(error, 409)) throw error;
      const conflicts = locateConflicts(parseConflicts(error.message), [
        target.synced.index,
        state.branches.main?.index ?? target.synced.index,
      ]);
      return { kind: 'conflict', ...base, message: error.message, conflicts };
    }
  }
  state.branches[target.branch] = { ...target.synced, closed: 'merged' };
  await writeState(dir, state);
  const pulled = await pull(client, dir, { branches: ['main'] });
  return { kind: 'merged', ...base, revision: revision || (pulled[0]?.to ?? ''), already, pulled, notSent };
}

/** Refuses, before anything is sent, to merge a change request older than its branch. */
function refuseUnpushed(branch: string, changeRequest: number, unpushed: Unpushed): void {
  if (!hasUnpushed(unpushed)) return;
  const what =
    unpushed.refused.length > 0
      ? unpushed.refused.map((r) => (r.reason.startsWith(r.path) ? r.reason : `${r.path}: ${r.reason}`)).join('; ')
      : [...new Set([...unpushed.committed, ...unpushed.uncommitted].map((c) => c.path))].join(', ');
  throw new SyncError(
    'unpushed-changes',
    `${branch} has changes not pushed to change request #${changeRequest} (${what}); push first (docsync push), then merge`,
    [],
    { ...unpushed },
  );
}

/**
 * Merges what `push` just sent from `branch`: a change request branch through `merge`, main
 * through its outbox change request. Either way `main` is pulled after.
 */
export async function mergePushed(client: Client, dir: string, branch: string): Promise<BranchMerge> {
  return branch === 'main' ? mergeOutbox(client, dir) : merge(client, dir, branch);
}

import type { Client } from '../client/index.js';
import { DocsyncError } from '../model/index.js';
import {
  branchOid, checkoutBranch, commitFiles, commitWorkingTree, currentBranch, diffTrees, readTreeFiles, workingTreeChanges, type TreeChange,
} from '../git/index.js';
import { fetchContent } from './remote-content.js';
import { snapshotOf } from './snapshot.js';
import { mergeFiles } from './merge-files.js';
import { remoteHead } from './remote-heads.js';
import { DOCSYNC_AUTHOR } from './author.js';
import { trackChangeRequest } from './track-change-request.js';
import type { ChangeRequest } from '../model/index.js';
import { readState, writeState } from './state.js';

export interface BranchPull {
  branch: string;
  /** Remote revision before and after; equal when nothing came. */
  from: string;
  to: string;
  /** Files the remote changed, as git names them. */
  changes: TreeChange[];
  /** Files left with conflict markers (or our version kept, for binary files and edit/delete). */
  conflicts: string[];
  /** The commit that saved uncommitted edits before the pull, when there were any. */
  savedLocalEdits?: string;
  /** A new branch for a change request opened on the platform since the last sync. */
  created?: boolean;
}

/**
 * Brings every tracked branch to its remote head. The remote content becomes a commit on top of
 * the last synced one; local commits are merged with it three-way (the last synced content is
 * the base), file by file and line by line. Uncommitted edits on the checked-out branch are
 * committed first, so nothing local is ever overwritten without being recoverable with git.
 * Conflicting lines are left with git-style markers.
 */
export async function pull(client: Client, dir: string): Promise<BranchPull[]> {
  const state = await readState(dir);
  const checkedOut = await currentBranch(dir);
  const results: BranchPull[] = [];
  for (const [branch, synced] of Object.entries(state.branches)) {
    const head = await remoteHead(client, state.binding.spaceId, synced);
    if (head.revision === synced.remoteRevision) {
      results.push({ branch, from: synced.remoteRevision, to: head.revision, changes: [], conflicts: [] });
      continue;
    }
    const local = await branchOid(dir, branch);
    if (local === null) throw new DocsyncError('not_found', `branch ${branch} is tracked by docsync but missing from the repository`);
    let savedLocalEdits: string | undefined;
    if (branch === checkedOut && (await workingTreeChanges(dir)).length > 0) {
      savedLocalEdits = (await commitWorkingTree(dir, { message: 'docsync: save local edits before pulling', author: DOCSYNC_AUTHOR })) ?? undefined;
    }
    const ours = (await branchOid(dir, branch))!;
    const snapshot = snapshotOf(await fetchContent(client, head.scope));
    const remoteCommit = await commitFiles(dir, {
      branch: `refs/docsync/remote/${branch}`,
      parent: synced.syncedCommit,
      files: snapshot.files,
      message: `docsync: remote ${branch} at revision ${snapshot.revision}`,
      author: DOCSYNC_AUTHOR,
    }).catch(async (error: unknown) => {
      // The keep-alive ref of an earlier pull points elsewhere: start it again from here.
      if ((error as { code?: string }).code !== 'ref-moved') throw error;
      const current = await branchOid(dir, `refs/docsync/remote/${branch}`);
      return commitFiles(dir, {
        branch: `refs/docsync/remote/${branch}`, parent: current, mergeParents: [synced.syncedCommit], files: snapshot.files,
        message: `docsync: remote ${branch} at revision ${snapshot.revision}`, author: DOCSYNC_AUTHOR,
      });
    });
    const changes = await diffTrees(dir, synced.syncedCommit, remoteCommit);
    let conflicts: string[] = [];
    if (ours === synced.syncedCommit) {
      // No local work: the branch simply takes the remote content.
      await commitFiles(dir, { branch, parent: ours, mergeParents: [remoteCommit], files: snapshot.files, message: `docsync: pull revision ${snapshot.revision}`, author: DOCSYNC_AUTHOR });
    } else {
      const merged = mergeFiles(await readTreeFiles(dir, synced.syncedCommit), await readTreeFiles(dir, ours), snapshot.files);
      conflicts = merged.conflicts;
      const message = conflicts.length === 0
        ? `docsync: merge remote revision ${snapshot.revision}`
        : `docsync: merge remote revision ${snapshot.revision}, with conflicts in ${conflicts.join(', ')}`;
      await commitFiles(dir, { branch, parent: ours, mergeParents: [remoteCommit], files: merged.files, message, author: DOCSYNC_AUTHOR });
    }
    if (branch === checkedOut) await checkoutBranch(dir, branch, { force: true });
    state.branches[branch] = { ...synced, remoteRevision: snapshot.revision, syncedCommit: remoteCommit, index: snapshot.index };
    await writeState(dir, state);
    results.push({ branch, from: synced.remoteRevision, to: snapshot.revision, changes, conflicts, ...(savedLocalEdits ? { savedLocalEdits } : {}) });
  }
  // Change requests opened on the platform since the last pull get their branch too.
  const tracked = new Set(Object.values(state.branches).map((b) => b.changeRequestId).filter((id) => id !== undefined));
  const main = state.branches.main;
  if (main) {
    const open: ChangeRequest[] = [];
    for await (const cr of client.changeRequests.list(state.binding.spaceId, { status: 'open' })) if (!tracked.has(cr.id)) open.push(cr);
    for (const cr of open) {
      const added = await trackChangeRequest(client, dir, state.binding.spaceId, cr, { revision: main.remoteRevision, commit: main.syncedCommit });
      state.branches[added.branch] = added.state;
      await writeState(dir, state);
      results.push({ branch: added.branch, from: '', to: added.state.remoteRevision, changes: [], conflicts: [], created: true });
    }
  }
  return results;
}

import type { Client } from '../client/index.js';
import type { ChangeRequest } from '../model/index.js';
import { commitFiles } from '../git/index.js';
import { fetchContent } from './remote-content.js';
import { snapshotOf } from './snapshot.js';
import { changeRequestBranch, remoteRef } from './branch-names.js';
import { DOCSYNC_AUTHOR } from './author.js';
import type { BranchState } from './state.js';
import type { WorkspaceProblem } from '../workspace/index.js';

export interface TrackedChangeRequest {
  branch: string;
  state: BranchState;
  commit: string;
  problems: WorkspaceProblem[];
}

/**
 * Makes the local branch `cr/<number>-<subject>` of a change request: one commit with its content,
 * on top of a commit of its base (main's commit when the base is main's synced revision).
 */
export async function trackChangeRequest(
  client: Client,
  dir: string,
  spaceId: string,
  cr: ChangeRequest,
  main: { revision: string; commit: string },
): Promise<TrackedChangeRequest> {
  const base = cr.revisionMergedAncestor ?? cr.revisionInitial;
  let parent = main.commit;
  if (base !== main.revision) {
    const baseSnapshot = snapshotOf(await fetchContent(client, { space: spaceId, revision: base }));
    parent = await commitFiles(dir, {
      branch: remoteRef(`base/${cr.number}`), parent: null, files: baseSnapshot.files,
      message: `docsync: base of change request #${cr.number} (revision ${base})`, author: DOCSYNC_AUTHOR,
    });
  }
  const snapshot = snapshotOf(await fetchContent(client, { space: spaceId, changeRequest: cr.id }));
  const branch = changeRequestBranch(cr.number, cr.subject);
  const commit = await commitFiles(dir, {
    branch, parent: null, mergeParents: [parent], files: snapshot.files,
    message: `docsync: change request #${cr.number} ${cr.subject} at revision ${snapshot.revision}`, author: DOCSYNC_AUTHOR,
  });
  return {
    branch,
    commit,
    problems: snapshot.problems,
    state: { changeRequestId: cr.id, changeRequestNumber: cr.number, remoteRevision: snapshot.revision, syncedCommit: commit, index: snapshot.index },
  };
}

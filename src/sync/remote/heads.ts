import type { Client, ContentScope } from '../../client/index.js';
import type { BranchState } from '../state/state.js';

/**
 * Where a branch's remote content lives, and its current head revision (one cheap request), with
 * the open comments the same answer counts (the space's own for main).
 */
export async function remoteHead(
  client: Client,
  spaceId: string,
  branch: BranchState,
): Promise<{ scope: ContentScope; revision: string; status?: string; comments?: number }> {
  if (branch.changeRequestId === undefined) {
    const space = await client.spaces.get(spaceId);
    return {
      scope: { space: spaceId },
      revision: space.revision,
      ...(typeof space.comments === 'number' ? { comments: space.comments } : {}),
    };
  }
  const cr = await client.changeRequests.get(spaceId, branch.changeRequestId);
  return {
    scope: { space: spaceId, changeRequest: branch.changeRequestId },
    revision: cr.revision,
    status: cr.status,
    ...(typeof cr.comments === 'number' ? { comments: cr.comments } : {}),
  };
}

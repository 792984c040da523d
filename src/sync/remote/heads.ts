import type { Client, ContentScope } from '../../client/index.js';
import type { BranchState } from '../state/state.js';

/** Where a branch's remote content lives, and its current head revision (one cheap request). */
export async function remoteHead(client: Client, spaceId: string, branch: BranchState): Promise<{ scope: ContentScope; revision: string; status?: string }> {
  if (branch.changeRequestId === undefined) {
    const space = await client.spaces.get(spaceId);
    return { scope: { space: spaceId }, revision: space.revision };
  }
  const cr = await client.changeRequests.get(spaceId, branch.changeRequestId);
  return { scope: { space: spaceId, changeRequest: branch.changeRequestId }, revision: cr.revision, status: cr.status };
}

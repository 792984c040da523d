import type { Kysely } from 'kysely';
import { DocsyncError } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { findChangeRequest, markChangeRequestMerged, withSpaceCounters, type ChangeRequestRow } from '../store/change-requests.js';
import { createRevision } from '../store/revisions.js';
import { findSpace, type SpaceRow } from '../store/spaces.js';
import { changeRequestBase } from './change-request-base.js';
import { moveSpaceHead } from './heads.js';
import { mergeRevisions } from './merge-revisions.js';
import { HeadMoved, retryOnHeadMoved } from './retry-on-head-moved.js';

/** How often a merge is redone on a main that moved meanwhile before answering 409. */
export const MERGE_ATTEMPTS = 5;

export function requireUnlocked(space: SpaceRow, action: string): void {
  if (space.edit_mode === 'locked') {
    throw new DocsyncError(
      'space_locked',
      `space ${space.id} is locked (editMode \`locked\`): ${action} is refused until an admin sets editMode to \`live\``,
    );
  }
}

function requireMergeable(cr: ChangeRequestRow): void {
  if (cr.status === 'merged' || cr.status === 'archived') {
    throw new DocsyncError('conflict', `change request #${cr.number} is ${cr.status} and cannot be merged`);
  }
}

async function load(db: Kysely<Database>, spaceId: string, changeRequestId: string) {
  const space = await findSpace(db, spaceId);
  if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
  const cr = await findChangeRequest(db, spaceId, changeRequestId);
  if (!cr) throw new DocsyncError('not_found', `change request ${changeRequestId} not found in space ${spaceId}`);
  return { space, cr };
}

/**
 * Merges a change request into its space's main content; returns the merge revision.
 *
 * base = the main revision the CR last took in, ours = main's head, theirs = the CR's head. The
 * merge is computed with no lock held; then, in one transaction, the revision is stored, main's
 * head moves by compare-and-swap from the head merged, and the CR becomes `merged` only if its
 * own head is still the one merged. If either head moved, nothing of this attempt is kept and
 * the merge is redone on the new heads, so a concurrent write is never lost.
 */
export async function mergeChangeRequest(
  db: Kysely<Database>,
  input: { spaceId: string; changeRequestId: string; userId: string },
  now: () => string,
): Promise<string> {
  return retryOnHeadMoved(
    MERGE_ATTEMPTS,
    async () => {
      const { space, cr } = await load(db, input.spaceId, input.changeRequestId);
      requireUnlocked(space, 'merging a change request');
      requireMergeable(cr);
      const merged = await mergeRevisions(
        db,
        { base: changeRequestBase(cr), ours: space.revision_id, theirs: cr.revision_id },
        `change request #${cr.number} cannot be merged into space ${space.id}`,
      );
      return withSpaceCounters(db, space.id, async (trx) => {
        const fresh = await findSpace(trx, space.id);
        if (!fresh) throw new DocsyncError('not_found', `space ${space.id} not found`);
        requireUnlocked(fresh, 'merging a change request');
        await merged.flush(trx);
        const at = now();
        const revision = await createRevision(
          trx,
          {
            spaceId: space.id,
            type: 'merge',
            parents: [space.revision_id, cr.revision_id],
            tree: merged.tree,
            changeRequestId: null,
            mergedFrom: cr.id,
            createdBy: input.userId,
          },
          at,
        );
        if (!(await moveSpaceHead(trx, space.id, space.revision_id, revision.id, at))) throw new HeadMoved();
        if (!(await markChangeRequestMerged(trx, { id: cr.id, head: cr.revision_id, revision: revision.id, userId: input.userId }, at)))
          throw new HeadMoved();
        return revision.id;
      });
    },
    () =>
      new DocsyncError(
        'conflict',
        `change request ${input.changeRequestId}: the space or the change request kept changing during the merge; try again`,
      ),
  );
}

import type { Kysely } from 'kysely';
import { DocsyncError } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { findChangeRequest, moveUpdatedChangeRequestHead } from '../store/change-requests.js';
import { createRevision } from '../store/revisions.js';
import { findSpace } from '../store/spaces.js';
import { inTransaction } from '../store/transaction.js';
import { HeadMoved, retryOnHeadMoved } from './retry-on-head-moved.js';
import { changeRequestBase } from './change-request-base.js';
import { MERGE_ATTEMPTS, requireUnlocked } from './merge-change-request.js';
import { mergeRevisions } from './merge-revisions.js';

/**
 * Brings main's content into a change request; returns the CR's new head.
 *
 * base = the main revision the CR last took in, ours = the CR's head, theirs = main's head. The
 * result is an `update` revision on the CR (parents: CR head, main head) and main's head becomes
 * the CR's `revisionMergedAncestor`, so the CR is no longer outdated. The CR's head moves by
 * compare-and-swap, and only while the CR is not merged; a concurrent write to the CR makes the
 * update start again on the new head. A CR already up to date is left as it is (no revision).
 */
export async function updateChangeRequest(
  db: Kysely<Database>,
  input: { spaceId: string; changeRequestId: string; userId: string },
  now: () => string,
): Promise<string> {
  return retryOnHeadMoved(
    MERGE_ATTEMPTS,
    async () => {
      const space = await findSpace(db, input.spaceId);
      if (!space) throw new DocsyncError('not_found', `space ${input.spaceId} not found`);
      const cr = await findChangeRequest(db, input.spaceId, input.changeRequestId);
      if (!cr) throw new DocsyncError('not_found', `change request ${input.changeRequestId} not found in space ${input.spaceId}`);
      requireUnlocked(space, 'updating a change request');
      if (cr.status === 'merged') throw new DocsyncError('conflict', `change request #${cr.number} is merged; it cannot be updated`);
      const mainHead = space.revision_id;
      if (changeRequestBase(cr) === mainHead) return cr.revision_id;
      const merged = await mergeRevisions(
        db,
        { base: changeRequestBase(cr), ours: cr.revision_id, theirs: mainHead },
        `change request #${cr.number} cannot be updated from space ${space.id}`,
      );
      return inTransaction(db, async (trx) => {
        await merged.flush(trx);
        const at = now();
        const revision = await createRevision(
          trx,
          {
            spaceId: space.id,
            type: 'update',
            parents: [cr.revision_id, mainHead],
            tree: merged.tree,
            changeRequestId: cr.id,
            createdBy: input.userId,
          },
          at,
        );
        if (!(await moveUpdatedChangeRequestHead(trx, { id: cr.id, from: cr.revision_id, to: revision.id, mainHead }, at)))
          throw new HeadMoved();
        return revision.id;
      });
    },
    () => new DocsyncError('conflict', `change request ${input.changeRequestId} kept changing during the update; try again`),
  );
}

import type { Kysely } from 'kysely';
import { DocsyncError } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { findChangeRequest } from '../store/change-requests.js';
import { createRevision } from '../store/revisions.js';
import { findSpace } from '../store/spaces.js';
import { inTransaction } from '../store/transaction.js';
import { changeRequestBase } from '../views/change-request.js';
import { MERGE_ATTEMPTS, requireUnlocked } from './merge-change-request.js';
import { mergeRevisions } from './merge-revisions.js';

class HeadMoved extends Error {}

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
  for (let attempt = 0; attempt < MERGE_ATTEMPTS; attempt += 1) {
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
    try {
      return await inTransaction(db, async (trx) => {
        await merged.flush(trx);
        const at = now();
        const revision = await createRevision(
          trx,
          { spaceId: space.id, type: 'update', parents: [cr.revision_id, mainHead], tree: merged.tree, changeRequestId: cr.id, createdBy: input.userId },
          at,
        );
        const moved = await trx
          .updateTable('change_requests')
          .set({ revision_id: revision.id, revision_merged_ancestor: mainHead, updated_at: at })
          .where('id', '=', cr.id)
          .where('revision_id', '=', cr.revision_id)
          .where('status', '!=', 'merged')
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new HeadMoved();
        return revision.id;
      });
    } catch (error) {
      if (!(error instanceof HeadMoved)) throw error;
    }
  }
  throw new DocsyncError('conflict', `change request ${input.changeRequestId} kept changing during the update; try again`);
}

import { inTransaction } from '../store/transaction.js';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { restoreDeadline } from '../../model/index.js';
import { dropSpaceIndex } from '../search/indexer.js';
import { deleteSpaceComments } from '../store/comments.js';

export const PURGE_SPACE = 'purge-space';

/** A deleted space is purged when it can no longer be restored. */
export const purgeDeadline = restoreDeadline;

/**
 * Removes a space deleted more than the restore window ago, with its revisions, change requests
 * and comments. A space that was restored (or deleted again later) is left alone: the job re-checks
 * instead of trusting that nothing happened since it was queued.
 */
export async function purgeSpace(db: Kysely<Database>, payload: { spaceId: string }, now: Date): Promise<void> {
  const space = await db.selectFrom('spaces').select(['id', 'deleted_at']).where('id', '=', payload.spaceId).executeTakeFirst();
  if (!space || space.deleted_at === null) return;
  if (purgeDeadline(space.deleted_at).getTime() > now.getTime()) return;
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('revisions').where('space_id', '=', space.id).execute();
    await trx.deleteFrom('change_requests').where('space_id', '=', space.id).execute();
    await deleteSpaceComments(trx, space.id);
    await dropSpaceIndex(trx, space.id);
    await trx.deleteFrom('spaces').where('id', '=', space.id).where('deleted_at', '=', space.deleted_at).execute();
  });
}

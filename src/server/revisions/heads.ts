import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/**
 * Compare-and-swap of head pointers. A writer reads a head, builds a new revision on it, then
 * moves the head only if it still is the one it read; otherwise it lost a race and must rebuild
 * on the new head (or answer 409). No lock is held while the revision is built, and no write is
 * ever lost: the head only moves from the revision the new one was built on.
 */
export async function moveSpaceHead(db: Kysely<Database>, spaceId: string, from: string, to: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('spaces')
    .set({ revision_id: to, updated_at: now })
    .where('id', '=', spaceId)
    .where('revision_id', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function moveChangeRequestHead(
  db: Kysely<Database>,
  changeRequestId: string,
  from: string,
  to: string,
  now: string,
  extra: { revision_merged_ancestor?: string } = {},
): Promise<boolean> {
  const result = await db
    .updateTable('change_requests')
    .set({ revision_id: to, updated_at: now, ...extra })
    .where('id', '=', changeRequestId)
    .where('revision_id', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

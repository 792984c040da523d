import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { recordChangeRequestEvent, recordEvent } from '../events/record.js';

/**
 * Compare-and-swap of head pointers. A writer reads a head, builds a new revision on it, then
 * moves the head only if it still is the one it read; otherwise it lost a race and must rebuild
 * on the new head (or answer 409). A head that moved is an event (server/events/), in the same
 * transaction when the caller runs one. No lock is held while the revision is built, and no write is
 * ever lost: the head only moves from the revision the new one was built on.
 */
export async function moveSpaceHead(db: Kysely<Database>, spaceId: string, from: string, to: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('spaces')
    .set({ revision_id: to, updated_at: now })
    .where('id', '=', spaceId)
    .where('revision_id', '=', from)
    .executeTakeFirst();
  const moved = Number(result.numUpdatedRows) === 1;
  if (moved) await recordEvent(db, { spaceId, type: 'revision', revision: to }, now);
  return moved;
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
  const moved = Number(result.numUpdatedRows) === 1;
  if (moved) await recordChangeRequestEvent(db, 'revision', changeRequestId, now);
  return moved;
}

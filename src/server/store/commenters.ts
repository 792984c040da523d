import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { SortKey } from '../util/cursor.js';
import type { MemberWithUser } from './members.js';

/**
 * One page of the organization members who posted a comment or a reply in a space (all of its
 * comments, its change requests' included) or in one change request, ordered by user id.
 * People who have left the organization are not members and are not listed.
 */
export async function listCommenters(
  db: Kysely<Database>,
  place: { orgId: string; spaceId: string; changeRequestId?: string },
  after: SortKey | undefined,
  n: number,
): Promise<MemberWithUser[]> {
  const inPlace = (eb: Kysely<Database>) => {
    let comments = eb.selectFrom('comments').select('id').where('space_id', '=', place.spaceId);
    if (place.changeRequestId !== undefined) comments = comments.where('change_request_id', '=', place.changeRequestId);
    return comments;
  };
  const commented = db
    .selectFrom('comments')
    .select('posted_by as user_id')
    .where('id', 'in', inPlace(db))
    .union(db.selectFrom('comment_replies').select('posted_by as user_id').where('comment_id', 'in', inPlace(db)));
  let query = db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .selectAll('members')
    .select(['users.email', 'users.display_name', 'users.photo_url', 'users.created_at'])
    .where('members.org_id', '=', place.orgId)
    .where('members.user_id', 'in', commented);
  if (after) query = query.where('members.user_id', '>', after[1]);
  return query.orderBy('members.user_id').limit(n).execute();
}

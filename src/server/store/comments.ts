import { sql, type Kysely } from 'kysely';
import type { CommentsTable, Database } from './schema.js';
import type { SortKey } from '../util/cursor.js';
import { inTransaction } from './transaction.js';
import { recordCommentEvent } from '../events/record.js';

export type CommentRow = CommentsTable;

/** Where comments live: a space's main content, or one change request of it. */
export interface CommentScope {
  spaceId: string;
  changeRequestId: string | null;
}

/**
 * Runs `fn` in a transaction holding the space row's lock, then recounts the open comments of
 * the space and of the change request. Every write that can change a counter (post, resolve,
 * reopen, delete) goes through here; recounting from the rows under the lock, rather than adding
 * deltas, keeps the counters true under concurrent writers on both dialects.
 */
export function withCommentCounters<T>(db: Kysely<Database>, scope: CommentScope, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return inTransaction(db, async (trx) => {
    await trx
      .updateTable('spaces')
      .set({ comments: sql`comments` })
      .where('id', '=', scope.spaceId)
      .execute();
    const result = await fn(trx);
    const open = (eb: Kysely<Database>, crId: string | null) =>
      eb
        .selectFrom('comments')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .where('space_id', '=', scope.spaceId)
        .where('status', '=', 'open')
        .where('change_request_id', crId === null ? 'is' : '=', crId)
        .executeTakeFirstOrThrow();
    if (scope.changeRequestId === null) {
      const { n } = await open(trx, null);
      await trx
        .updateTable('spaces')
        .set({ comments: Number(n) })
        .where('id', '=', scope.spaceId)
        .execute();
    } else {
      const { n } = await open(trx, scope.changeRequestId);
      await trx
        .updateTable('change_requests')
        .set({ comments: Number(n) })
        .where('id', '=', scope.changeRequestId)
        .execute();
    }
    return result;
  });
}

export function insertComment(db: Kysely<Database>, row: CommentRow): Promise<CommentRow> {
  return withCommentCounters(db, { spaceId: row.space_id, changeRequestId: row.change_request_id }, async (trx) => {
    await trx.insertInto('comments').values(row).execute();
    await recordCommentEvent(trx, row.id, undefined, row.posted_at);
    return row;
  });
}

/** A comment of exactly this scope: a change request's comment is not found through the space. */
export function findComment(db: Kysely<Database>, scope: CommentScope, id: string): Promise<CommentRow | undefined> {
  return db
    .selectFrom('comments')
    .selectAll()
    .where('id', '=', id)
    .where('space_id', '=', scope.spaceId)
    .where('change_request_id', scope.changeRequestId === null ? 'is' : '=', scope.changeRequestId)
    .executeTakeFirst();
}

export interface CommentFilter {
  status: 'all' | 'open' | 'resolved';
  pageId?: string | undefined;
  authors?: readonly string[] | undefined;
  order: 'asc' | 'desc';
}

/** One page of a scope's comments in posting order (keyset on posted_at, id). */
export function listComments(
  db: Kysely<Database>,
  scope: CommentScope,
  filter: CommentFilter,
  after: SortKey | undefined,
  n: number,
): Promise<CommentRow[]> {
  let query = db
    .selectFrom('comments')
    .selectAll()
    .where('space_id', '=', scope.spaceId)
    .where('change_request_id', scope.changeRequestId === null ? 'is' : '=', scope.changeRequestId);
  if (filter.status !== 'all') query = query.where('status', '=', filter.status);
  if (filter.pageId !== undefined) query = query.where('page_id', '=', filter.pageId);
  if (filter.authors !== undefined && filter.authors.length > 0) query = query.where('posted_by', 'in', [...filter.authors]);
  const cmp = filter.order === 'asc' ? '>' : '<';
  if (after) {
    const [postedAt, id] = [String(after[0]), after[1]];
    query = query.where((eb) => eb.or([eb('posted_at', cmp, postedAt), eb.and([eb('posted_at', '=', postedAt), eb('id', cmp, id)])]));
  }
  return query.orderBy('posted_at', filter.order).orderBy('id', filter.order).limit(n).execute();
}

export interface CommentChanges {
  body?: string;
  edited_at?: string;
  status?: 'open' | 'resolved';
  resolved_at?: string | null;
  resolved_by?: string | null;
}

export async function updateComment(db: Kysely<Database>, row: CommentRow, changes: CommentChanges): Promise<CommentRow | undefined> {
  if (Object.keys(changes).length === 0) return row;
  return withCommentCounters(db, { spaceId: row.space_id, changeRequestId: row.change_request_id }, async (trx) => {
    await trx.updateTable('comments').set(changes).where('id', '=', row.id).execute();
    return trx.selectFrom('comments').selectAll().where('id', '=', row.id).executeTakeFirst();
  });
}

/** Removes the comment with its replies and every reaction to either; false when it was already gone. */
export function deleteComment(db: Kysely<Database>, row: CommentRow): Promise<boolean> {
  return withCommentCounters(db, { spaceId: row.space_id, changeRequestId: row.change_request_id }, async (trx) => {
    const replies = trx.selectFrom('comment_replies').select('id').where('comment_id', '=', row.id);
    await trx
      .deleteFrom('comment_reactions')
      .where((eb) => eb.or([eb('subject_id', '=', row.id), eb('subject_id', 'in', replies)]))
      .execute();
    await trx.deleteFrom('comment_replies').where('comment_id', '=', row.id).execute();
    const result = await trx.deleteFrom('comments').where('id', '=', row.id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  });
}

/** Everything comment-related of a space, for the purge of a deleted space. */
export async function deleteSpaceComments(trx: Kysely<Database>, spaceId: string): Promise<void> {
  const comments = trx.selectFrom('comments').select('id').where('space_id', '=', spaceId);
  const replies = trx.selectFrom('comment_replies').select('id').where('comment_id', 'in', comments);
  await trx
    .deleteFrom('comment_reactions')
    .where((eb) => eb.or([eb('subject_id', 'in', comments), eb('subject_id', 'in', replies)]))
    .execute();
  await trx.deleteFrom('comment_replies').where('comment_id', 'in', comments).execute();
  await trx.deleteFrom('comments').where('space_id', '=', spaceId).execute();
}

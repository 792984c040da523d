import type { Kysely } from 'kysely';
import type { CommentRepliesTable, Database } from './schema.js';
import type { SortKey } from '../util/cursor.js';
import { inTransaction } from './transaction.js';
import { recordCommentEvent } from '../events/record.js';

export type ReplyRow = CommentRepliesTable;

/**
 * Adds a reply unless its comment is gone: the insert and the check are one statement, so a
 * reply racing a delete of its comment is either removed with it or refused, never orphaned.
 */
export function insertReply(db: Kysely<Database>, row: Omit<ReplyRow, 'edited_at'>): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('comment_replies')
      .columns(['id', 'comment_id', 'body', 'posted_by', 'posted_at'])
      .expression((eb) =>
        eb
          .selectFrom('comments')
          .select([
            eb.val(row.id).as('id'),
            'comments.id as comment_id',
            eb.val(row.body).as('body'),
            eb.val(row.posted_by).as('posted_by'),
            eb.val(row.posted_at).as('posted_at'),
          ])
          .where('comments.id', '=', row.comment_id),
      )
      .returning('id')
      .execute();
    if (inserted.length === 1) await recordCommentEvent(trx, row.comment_id, row.id, row.posted_at);
    return inserted.length === 1;
  });
}

export function findReply(db: Kysely<Database>, commentId: string, id: string): Promise<ReplyRow | undefined> {
  return db.selectFrom('comment_replies').selectAll().where('id', '=', id).where('comment_id', '=', commentId).executeTakeFirst();
}

/** One page of a comment's replies, oldest first (keyset on posted_at, id). */
export function listReplies(db: Kysely<Database>, commentId: string, after: SortKey | undefined, n: number): Promise<ReplyRow[]> {
  let query = db.selectFrom('comment_replies').selectAll().where('comment_id', '=', commentId);
  if (after) {
    const [postedAt, id] = [String(after[0]), after[1]];
    query = query.where((eb) => eb.or([eb('posted_at', '>', postedAt), eb.and([eb('posted_at', '=', postedAt), eb('id', '>', id)])]));
  }
  return query.orderBy('posted_at', 'asc').orderBy('id', 'asc').limit(n).execute();
}

export async function updateReply(db: Kysely<Database>, row: ReplyRow, changes: { body: string; edited_at: string }): Promise<ReplyRow> {
  await db.updateTable('comment_replies').set(changes).where('id', '=', row.id).execute();
  return { ...row, ...changes };
}

export function deleteReply(db: Kysely<Database>, row: ReplyRow): Promise<void> {
  return inTransaction(db, async (trx) => {
    await trx.deleteFrom('comment_reactions').where('subject_id', '=', row.id).execute();
    await trx.deleteFrom('comment_replies').where('id', '=', row.id).execute();
  });
}

/** Reply counts and repliers of comments, for rendering them. */
export async function replyStats(
  db: Kysely<Database>,
  commentIds: readonly string[],
): Promise<Map<string, { count: number; repliers: { userId: string; count: number; updatedAt: string }[] }>> {
  const out = new Map<string, { count: number; repliers: { userId: string; count: number; updatedAt: string }[] }>();
  if (commentIds.length === 0) return out;
  const rows = await db
    .selectFrom('comment_replies')
    .select(['comment_id', 'posted_by', (eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.max('posted_at').as('last')])
    .where('comment_id', 'in', [...commentIds])
    .groupBy(['comment_id', 'posted_by'])
    .execute();
  for (const row of rows) {
    const entry = out.get(row.comment_id) ?? { count: 0, repliers: [] };
    entry.count += Number(row.n);
    entry.repliers.push({ userId: row.posted_by, count: Number(row.n), updatedAt: String(row.last) });
    out.set(row.comment_id, entry);
  }
  for (const entry of out.values())
    entry.repliers.sort((a, b) => (a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : a.userId < b.userId ? -1 : 1));
  return out;
}

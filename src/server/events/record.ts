import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { SpaceEventType } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';

export interface NewEvent {
  spaceId: string;
  type: SpaceEventType;
  changeRequest?: { id: string; number: number; status?: string };
  revision?: string;
  comment?: { id: string; reply?: string };
}

/**
 * Records an event in the writer's transaction, so it exists exactly when the change it reports
 * does (a rolled-back write leaves none).
 *
 * Invariant kept for readers (server/events/hub.ts): ids become visible in increasing order.
 * PostgreSQL hands out serial ids at insert, not at commit, so two writers could commit 8 before
 * 7, and a reader that saw 8 would skip 7 for ever. Writers therefore take the table's lock (a
 * mode that conflicts with itself only, readers are not blocked) before inserting; it is held to
 * the commit, which serialises the last step of concurrent writes. SQLite has one writer at a time.
 */
export async function recordEvent(db: Kysely<Database>, event: NewEvent, now: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
    if (postgres) await sql`lock table events in share row exclusive mode`.execute(trx);
    await trx
      .insertInto('events')
      .values({
        space_id: event.spaceId,
        type: event.type,
        change_request_id: event.changeRequest?.id ?? null,
        change_request_number: event.changeRequest?.number ?? null,
        status: event.changeRequest?.status ?? null,
        revision_id: event.revision ?? null,
        comment_id: event.comment?.id ?? null,
        reply_id: event.comment?.reply ?? null,
        created_at: now,
      })
      .execute();
  });
}

/** A change request's `revision` or `change-request` event, read from its row as it now is. */
export async function recordChangeRequestEvent(
  db: Kysely<Database>,
  type: 'revision' | 'change-request',
  changeRequestId: string,
  now: string,
): Promise<void> {
  const cr = await db
    .selectFrom('change_requests')
    .select(['space_id', 'number', 'status', 'revision_id'])
    .where('id', '=', changeRequestId)
    .executeTakeFirst();
  if (!cr) return;
  await recordEvent(
    db,
    {
      spaceId: cr.space_id,
      type,
      revision: cr.revision_id,
      changeRequest: { id: changeRequestId, number: cr.number, ...(type === 'change-request' ? { status: cr.status } : {}) },
    },
    now,
  );
}

/** A `comment` event for a comment (or a reply to it) on the space or one of its change requests. */
export async function recordCommentEvent(db: Kysely<Database>, commentId: string, reply: string | undefined, now: string): Promise<void> {
  const comment = await db
    .selectFrom('comments')
    .leftJoin('change_requests', 'change_requests.id', 'comments.change_request_id')
    .select(['comments.space_id', 'comments.change_request_id', 'change_requests.number'])
    .where('comments.id', '=', commentId)
    .executeTakeFirst();
  if (!comment) return;
  const changeRequest =
    comment.change_request_id !== null && comment.number !== null ? { id: comment.change_request_id, number: comment.number } : undefined;
  await recordEvent(
    db,
    {
      spaceId: comment.space_id,
      type: 'comment',
      ...(changeRequest ? { changeRequest } : {}),
      comment: { id: commentId, ...(reply !== undefined ? { reply } : {}) },
    },
    now,
  );
}

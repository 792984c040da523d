import type { Kysely } from 'kysely';
import type { CommentReactionsTable, Database } from './schema.js';
import { inTransaction } from './transaction.js';

export type ReactionRow = CommentReactionsTable;

/**
 * Adds and removes one user's reactions to a comment or reply. Adding an emoji the user already
 * reacted with keeps the first reaction (and its time); removing one never added does nothing.
 */
export function applyReactions(
  db: Kysely<Database>,
  input: { subjectId: string; userId: string; added: readonly string[]; removed: readonly string[] },
  now: string,
): Promise<void> {
  return inTransaction(db, async (trx) => {
    for (const emoji of new Set(input.added)) {
      await trx
        .insertInto('comment_reactions')
        .values({ subject_id: input.subjectId, emoji, user_id: input.userId, reacted_at: now })
        .onConflict((oc) => oc.columns(['subject_id', 'emoji', 'user_id']).doNothing())
        .execute();
    }
    if (input.removed.length > 0) {
      await trx
        .deleteFrom('comment_reactions')
        .where('subject_id', '=', input.subjectId)
        .where('user_id', '=', input.userId)
        .where('emoji', 'in', [...new Set(input.removed)])
        .execute();
    }
  });
}

/** Every reaction to these comments or replies, oldest first. */
export function reactionsOf(db: Kysely<Database>, subjectIds: readonly string[]): Promise<ReactionRow[]> {
  if (subjectIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('comment_reactions')
    .selectAll()
    .where('subject_id', 'in', [...subjectIds])
    .orderBy('reacted_at')
    .orderBy('user_id')
    .orderBy('emoji')
    .execute();
}

import type { Kysely } from 'kysely';

/**
 * Comments on spaces and change requests (docs/api.md, "Comments").
 *
 * - `comments`: one row per comment. `change_request_id` is null for a comment on the space's
 *   main content. `page_document` is the sha256 of the page's document when the comment was
 *   posted, so `target.page.outdated` is a comparison with the page's current document.
 * - `comment_replies`: replies, in the order posted.
 * - `comment_reactions`: one row per (comment or reply, emoji, user); a user reacts once per emoji.
 *
 * The space's and change request's `comments` counters (open comments) are recounted from these
 * rows in the transaction of every write that can change them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('change_request_id', 'text')
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text')
    .addColumn('page_document', 'text')
    .addColumn('node_id', 'text')
    .addColumn('node_preview', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('posted_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('posted_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text', (c) => c.references('users.id'))
    .execute();
  await db.schema.createIndex('comments_scope').on('comments').columns(['space_id', 'change_request_id', 'posted_at', 'id']).execute();

  await db.schema
    .createTable('comment_replies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('comment_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('posted_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('posted_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .execute();
  await db.schema.createIndex('comment_replies_comment').on('comment_replies').columns(['comment_id', 'posted_at', 'id']).execute();

  await db.schema
    .createTable('comment_reactions')
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('reacted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_reactions_pk', ['subject_id', 'emoji', 'user_id'])
    .execute();
}

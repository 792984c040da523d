import { PostgresAdapter, type Kysely } from 'kysely';

/*
 * What changed, per space, in the order it was committed: head moves of main and of change
 * requests, change request status changes, comments and replies. The event stream
 * (server/events/) serves them from here, so any server process sharing the database can serve
 * any subscriber, `Last-Event-ID` resumes after a reconnect or a restart, and none is lost.
 * The id is the order: writers take the table's lock before inserting (server/events/record.ts),
 * so ids become visible in increasing order and a reader's "after id N" never skips one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('events')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('change_request_id', 'text')
    .addColumn('change_request_number', 'integer')
    .addColumn('status', 'text')
    .addColumn('revision_id', 'text')
    .addColumn('comment_id', 'text')
    .addColumn('reply_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_space').on('events').columns(['space_id', 'id']).execute();
}

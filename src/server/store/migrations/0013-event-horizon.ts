import { PostgresAdapter, type Kysely } from 'kysely';

/*
 * How far events have been purged (server/jobs/purge-events.ts): one row, `horizon` the largest
 * event id deleted. A subscriber resuming after an id below it missed events that no longer
 * exist and is told so with a `reset` event (docs/api.md, "Events").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('event_horizon')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('horizon', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('purged_at', 'text', (c) => c.notNull())
    .execute();
}

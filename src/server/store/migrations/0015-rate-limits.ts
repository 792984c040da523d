import { PostgresAdapter, type Kysely } from 'kysely';

/*
 * Request counts of the API's rate limiter (server/rate-limit/), one row per caller and fixed
 * window, in the database so that every server process on it counts the same requests.
 * `key` names the caller (a token's sha256, never the token; an address for requests without
 * one); `window_start` is the window's first millisecond. Rows of ended windows are deleted when
 * the caller's next window starts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('rate_limit_windows')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['key', 'window_start'])
    .execute();
}

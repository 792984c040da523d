import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Counts one request of `key` in the window that starts at `windowStart` and returns the
 * window's count, this request included. One statement, so two processes counting the same
 * caller at once both land (the database serialises the upsert). The first request of a window
 * deletes the caller's ended windows, so the table holds at most about one row per active caller.
 */
export async function countRequest(db: Kysely<Database>, key: string, windowStart: number): Promise<number> {
  const row = await db
    .insertInto('rate_limit_windows')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ count: sql`rate_limit_windows.count + 1` }))
    .returning('count')
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  if (count === 1) {
    await db.deleteFrom('rate_limit_windows').where('key', '=', key).where('window_start', '<', windowStart).execute();
  }
  return count;
}

/** Requests `key` made in the window that starts at `windowStart`, without counting one. */
export async function requestCount(db: Kysely<Database>, key: string, windowStart: number): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_windows')
    .select('count')
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row ? Number(row.count) : 0;
}

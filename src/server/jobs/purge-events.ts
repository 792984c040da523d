import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { inTransaction } from '../store/transaction.js';
import { enqueueJob } from './queue.js';

export const PURGE_EVENTS = 'purge-events';

/** How long events are kept for subscribers to resume from. @default 7 days */
export const DEFAULT_EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** How often the purge runs. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export interface PurgeEventsPayload {
  retentionMs: number;
}

/** The largest event id purged so far; 0 when none was. */
export async function eventHorizon(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('event_horizon').select('horizon').where('id', '=', 'events').executeTakeFirst();
  return row ? Number(row.horizon) : 0;
}

/**
 * Deletes the events older than the retention window and moves the horizon to the largest id
 * deleted, then queues its next run: one job that runs every hour for as long as the server does.
 * Ids follow commit order (server/events/record.ts), so everything at or below the horizon is gone
 * and everything above it is kept.
 */
export async function purgeEvents(db: Kysely<Database>, payload: PurgeEventsPayload, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - payload.retentionMs).toISOString();
  await inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('max'))
      .where('created_at', '<', cutoff)
      .executeTakeFirst();
    const max = row?.max === null || row?.max === undefined ? 0 : Number(row.max);
    if (max > 0) {
      await trx.deleteFrom('events').where('id', '<=', max).execute();
      const horizon = Math.max(max, await eventHorizon(trx));
      await trx
        .insertInto('event_horizon')
        .values({ id: 'events', horizon, purged_at: now.toISOString() })
        .onConflict((oc) => oc.column('id').doUpdateSet({ horizon, purged_at: now.toISOString() }))
        .execute();
    }
    const next = new Date(now.getTime() + Math.min(PURGE_INTERVAL_MS, payload.retentionMs)).toISOString();
    await enqueueJob(trx, { kind: PURGE_EVENTS, payload: { ...payload }, runAt: next }, now.toISOString());
  });
}

/**
 * Makes sure the purge is queued, with this process's retention (several processes sharing one
 * database converge on the last one started).
 */
export async function schedulePurgeEvents(db: Kysely<Database>, retentionMs: number, now: Date): Promise<void> {
  const payload = JSON.stringify({ retentionMs } satisfies PurgeEventsPayload);
  const queued = await db.updateTable('jobs').set({ payload }).where('kind', '=', PURGE_EVENTS).executeTakeFirst();
  if (Number(queued.numUpdatedRows) > 0) return;
  await enqueueJob(db, { kind: PURGE_EVENTS, payload: { retentionMs }, runAt: now.toISOString() }, now.toISOString());
}

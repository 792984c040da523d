import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import { PURGE_SPACE, purgeSpace } from './purge-space.js';
import { PURGE_EVENTS, purgeEvents } from './purge-events.js';
import { PROCESS_OPENAPI_SPEC, processSpec } from '../openapi/process-spec.js';

type Handler = (db: Kysely<Database>, payload: never, now: Date) => Promise<void>;

const HANDLERS: Record<string, Handler> = {
  [PURGE_SPACE]: purgeSpace as Handler,
  [PURGE_EVENTS]: purgeEvents as Handler,
  [PROCESS_OPENAPI_SPEC]: processSpec as Handler,
};

/** A claimed job is someone else's for this long; after that a crashed runner's job is retried. */
const LEASE_MS = 5 * 60 * 1000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;

/**
 * Runs every job whose time has come. Several server processes may share one database: each
 * job is claimed with a compare-and-swap on `locked_until`, so exactly one of them runs it.
 * Returns the number of jobs that ran to completion.
 */
export async function runDueJobs(db: Kysely<Database>, clock: Clock): Promise<number> {
  const now = clock.now();
  const nowIso = now.toISOString();
  const due = await db
    .selectFrom('jobs')
    .selectAll()
    .where('run_at', '<=', nowIso)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso)]))
    .orderBy('run_at')
    .limit(100)
    .execute();
  let done = 0;
  for (const job of due) {
    const claim = await db
      .updateTable('jobs')
      .set({ locked_until: new Date(now.getTime() + LEASE_MS).toISOString() })
      .where('id', '=', job.id)
      .where((eb) => (job.locked_until === null ? eb('locked_until', 'is', null) : eb('locked_until', '=', job.locked_until)))
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;
    const handler = HANDLERS[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
      await handler(db, JSON.parse(job.payload) as never, now);
      await db.deleteFrom('jobs').where('id', '=', job.id).execute();
      done += 1;
    } catch (error) {
      const attempts = job.attempts + 1;
      const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempts);
      await db
        .updateTable('jobs')
        .set({
          attempts,
          last_error: error instanceof Error ? error.message : String(error),
          run_at: new Date(now.getTime() + backoff).toISOString(),
          locked_until: null,
        })
        .where('id', '=', job.id)
        .execute();
    }
  }
  return done;
}

export interface JobRunner {
  /** Runs due jobs now (tests use it with a moved clock). */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

export function startJobRunner(options: { db: Kysely<Database>; clock: Clock; intervalMs: number }): JobRunner {
  let running: Promise<number> = Promise.resolve(0);
  const tick = () => {
    running = running.then(() => runDueJobs(options.db, options.clock)).catch(() => 0);
    return running;
  };
  const timer = setInterval(() => void tick(), options.intervalMs);
  timer.unref();
  void tick();
  return {
    runNow: tick,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

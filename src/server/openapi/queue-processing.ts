import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import { enqueueJob } from '../jobs/queue.js';
import { runDueJobs } from '../jobs/runner.js';
import { PROCESS_OPENAPI_SPEC, type ProcessSpecPayload } from './process-spec.js';

/**
 * Queues the processing of a spec as a durable job, then asks this process to run due jobs now
 * rather than at the runner's next tick. The job is in the database either way: if this
 * process stops first, any other (or this one restarted) runs it.
 */
export async function queueSpecProcessing(db: Kysely<Database>, clock: Clock, payload: ProcessSpecPayload): Promise<void> {
  const now = clock.now().toISOString();
  await enqueueJob(db, { kind: PROCESS_OPENAPI_SPEC, payload: { ...payload }, runAt: now }, now);
  setImmediate(() => void runDueJobs(db, clock).catch(() => 0));
}

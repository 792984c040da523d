import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { newId } from '../util/ids.js';

export interface JobInput {
  kind: string;
  payload: Record<string, unknown>;
  runAt: string;
}

/** Records a job in the database, so it survives restarts and any server process may run it. */
export async function enqueueJob(db: Kysely<Database>, job: JobInput, now: string): Promise<string> {
  const id = newId();
  await db
    .insertInto('jobs')
    .values({
      id,
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      run_at: job.runAt,
      locked_until: null,
      last_error: null,
      created_at: now,
    })
    .execute();
  return id;
}

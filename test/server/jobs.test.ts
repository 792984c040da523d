import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { enqueueJob } from '../../src/server/jobs/queue.js';
import { runDueJobs } from '../../src/server/jobs/runner.js';
import { PURGE_SPACE } from '../../src/server/jobs/purge-space.js';
import { PURGE_EVENTS } from '../../src/server/jobs/purge-events.js';
import { createSpace } from '../helpers/spaces.js';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

describe.each(testDialects())('durable jobs (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
    // The server queues its hourly purge of old events at start, and the purge queues its next run;
    // these tests count the jobs they queue themselves, so the purge is let run once and then taken
    // out (test/server/events-retention.test.ts covers it).
    await s.server.jobs.runNow();
    await s.server.db.kysely.deleteFrom('jobs').where('kind', '=', PURGE_EVENTS).execute();
  });
  afterAll(async () => {
    await s?.close();
  });

  const db = () => s.server.db.kysely;
  const job = (id: string) => db().selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  const enqueue = (kind: string, payload: Record<string, unknown>, runAt = s.clock.now()) =>
    enqueueJob(db(), { kind, payload, runAt: runAt.toISOString() }, s.clock.now().toISOString());

  it('a job that fails stays in the queue with its error and runs again later', async () => {
    const id = await enqueue('no-such-kind', {});
    await runDueJobs(db(), s.clock);
    const failed = await job(id);
    expect(failed).toMatchObject({ attempts: 1, locked_until: null });
    expect(failed!.last_error).toMatch(/no handler/);
    expect(Date.parse(failed!.run_at)).toBeGreaterThan(s.clock.now().getTime());

    // Not due again yet: nothing happens to it.
    await runDueJobs(db(), s.clock);
    expect((await job(id))!.attempts).toBe(1);
    s.clock.advance(MINUTE);
    await runDueJobs(db(), s.clock);
    expect((await job(id))!.attempts).toBe(2);
    await db().deleteFrom('jobs').where('id', '=', id).execute();
  });

  it('a job claimed by a runner that died is taken over once its lease runs out', async () => {
    const space = await createSpace(s);
    expect((await s.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    const row = await db().selectFrom('jobs').selectAll().where('payload', 'like', `%${space.id}%`).executeTakeFirstOrThrow();
    expect(row.kind).toBe(PURGE_SPACE);
    s.clock.advance(7 * DAY + MINUTE);
    const lease = new Date(s.clock.now().getTime() + 2 * MINUTE).toISOString();
    await db().updateTable('jobs').set({ locked_until: lease }).where('id', '=', row.id).execute();

    expect(await runDueJobs(db(), s.clock)).toBe(0);
    expect(await job(row.id)).toBeDefined();
    s.clock.advance(3 * MINUTE);
    expect(await runDueJobs(db(), s.clock)).toBe(1);
    expect(await job(row.id)).toBeUndefined();
    expect(await db().selectFrom('spaces').select('id').where('id', '=', space.id).execute()).toEqual([]);
  });

  it('two runners sharing the database run a due job exactly once', async () => {
    const spaces = [await createSpace(s), await createSpace(s), await createSpace(s)];
    for (const space of spaces) expect((await s.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    s.clock.advance(7 * DAY + MINUTE);
    const counts = await Promise.all([runDueJobs(db(), s.clock), runDueJobs(db(), s.clock), s.server.jobs.runNow()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    const left = await db()
      .selectFrom('spaces')
      .select('id')
      .where(
        'id',
        'in',
        spaces.map((x) => x.id),
      )
      .execute();
    expect(left).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { openStream, type TestStream } from '../helpers/event-stream.js';
import { createSpace } from '../helpers/spaces.js';
import { changeRequestWith } from '../sync/fixture.js';
import { DEFAULT_EVENT_RETENTION_MS, PURGE_EVENTS, eventHorizon } from '../../src/server/jobs/purge-events.js';

const DAY = 24 * 60 * 60 * 1000;

/** Events are purged past the retention window; resuming from before it gets a `reset` (issue 23, item 3; docs/api.md "Events"). */
describe.each(testDialects())('event retention (%s)', (dialect) => {
  let s: TestServer;
  const streams: TestStream[] = [];
  beforeAll(async () => {
    s = await startServer(dialect, { events: { pollMs: 50, heartbeatMs: 100 } });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await s?.close();
  });
  const open = async (url: string, headers?: Record<string, string>) => {
    const stream = await openStream(url, s.token, headers);
    streams.push(stream);
    return stream;
  };
  const page = (title: string) => ({ operation: 'insert_page', ref: title, title, document: { markdown: `# ${title}\n\nText.\n` } });
  const eventIds = async () =>
    (await s.server.db.kysely.selectFrom('events').select('id').orderBy('id').execute()).map((row) => Number(row.id));

  it('purges events older than the window, keeps the newer ones, and tells a subscriber resuming from before it to read everything again', async () => {
    const space = await createSpace(s, { title: 'Retained' });
    await changeRequestWith(s, space.id, 'Old', [page('Old')]);
    const old = await eventIds();
    expect(old.length).toBeGreaterThan(1);
    s.clock.advance(DEFAULT_EVENT_RETENTION_MS + DAY);
    await changeRequestWith(s, space.id, 'New', [page('New')]);
    const kept = (await eventIds()).filter((id) => id > old.at(-1)!);

    // The purge was queued at start; it runs, and queues its next run.
    await s.server.jobs.runNow();
    expect(await eventIds()).toEqual(kept);
    expect(await eventHorizon(s.server.db.kysely)).toBe(old.at(-1));
    const queued = await s.server.db.kysely.selectFrom('jobs').select('run_at').where('kind', '=', PURGE_EVENTS).execute();
    expect(queued).toHaveLength(1);

    const resumed = await open(`${s.url}/v1/spaces/${space.id}/events`, { 'last-event-id': String(old[0]) });
    await resumed.until('the kept events', (events) => events.length >= 1 + kept.length);
    expect(resumed.events[0]).toMatchObject({ type: 'reset', sseType: 'reset', sseId: String(old.at(-1)), horizon: String(old.at(-1)) });
    expect(resumed.events.slice(1).map((e) => Number(e.id))).toEqual(kept);

    // From the horizon on, nothing was lost: no reset.
    const current = await open(`${s.url}/v1/spaces/${space.id}/events`, { 'last-event-id': String(old.at(-1)) });
    await current.until('the kept events', (events) => events.length >= kept.length);
    expect(current.events.map((e) => Number(e.id))).toEqual(kept);

    const org = await open(`${s.url}/v1/orgs/${s.orgId}/events?lastEventId=${old[0]}`);
    await org.until('the reset', (events) => events.length >= 1);
    expect(org.events[0]!.type).toBe('reset');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { dropPostgresSchema } from '../../src/server/store/db.js';
import { testDialects } from '../helpers/server.js';
import { TestClock } from '../helpers/clock.js';
import { startSpecFixture, type SpecFixture } from '../helpers/openapi-fixture.js';
import { OPENAPI_LIMITS } from '../../src/server/openapi/limits.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

const TOKEN = 'test_openapi_restart_token_0123456789';
const LEASE_MS = 5 * 60 * 1000;

describe.each(testDialects())('OpenAPI processing survives a restart (%s)', (dialect) => {
  let fixture: SpecFixture;
  const dataDir = mkdtempSync(join(tmpdir(), 'docsync-openapi-restart-'));
  const schema = `t_openapi_restart_${process.pid}_${Date.now().toString(36)}`;
  const store = dialect === 'postgres' ? { databaseUrl: process.env.DOCSYNC_TEST_DATABASE_URL!, schema } : { dataDir };
  const start = (clock: TestClock) =>
    serve({ host: '127.0.0.1', port: 0, clock, bootstrapToken: TOKEN, jobIntervalMs: 3_600_000, allowPrivateFetch: true, ...store });

  // The first server's job waits on a held fetch until that server is closed: its own timeout
  // (10 s) would otherwise end the fetch and record FETCH_TIMEOUT first on a slow machine.
  const timeout = OPENAPI_LIMITS.timeoutMs;
  beforeAll(async () => {
    fixture = await startSpecFixture();
    OPENAPI_LIMITS.timeoutMs = 600_000;
  });
  afterAll(async () => {
    OPENAPI_LIMITS.timeoutMs = timeout;
    await fixture?.close();
    if (dialect === 'postgres') await dropPostgresSchema(process.env.DOCSYNC_TEST_DATABASE_URL!, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function api(server: RunningServer, method: string, path: string, body?: unknown) {
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it('a server stopped mid-processing leaves the job; another one finishes it, once', async () => {
    const first = await start(new TestClock());
    const org = (await first.db.kysely.selectFrom('organizations').select('id').executeTakeFirstOrThrow()).id;
    const made = await api(first, 'POST', `/orgs/${org}/openapi`, { slug: 'pets', source: { url: `${fixture.url}/api/slow.yaml` } });
    expect(made.status).toBe(201);
    // The job's fetch has reached the fixture, which holds it: the job is mid-way, however long
    // the machine took to start it.
    await fixture.slow.asked;
    expect((await api(first, 'GET', `/orgs/${org}/openapi/pets`)).body.processingState).toBe('progress');
    await first.close();

    // The held answer never came; the file now answers at once.
    fixture.slow.path = '/none';
    const clock = new TestClock();
    clock.advance(LEASE_MS + 1000);
    const second = await start(clock);
    const third = await start(clock);
    try {
      // Each process looks for due jobs when it starts, and both again at once here: the claim
      // lets only one of them run the job.
      await Promise.all([second.jobs.runNow(), third.jobs.runNow()]);
      const done = await api(third, 'GET', `/orgs/${org}/openapi/pets`);
      expect(done.body).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });
      expect(done.body.lastProcessErrorCode).toBeUndefined();
      expect((await api(second, 'GET', `/orgs/${org}/openapi/pets/versions`)).body.items).toHaveLength(1);
      const jobs = await second.db.kysely.selectFrom('jobs').selectAll().execute();
      // The hourly purge of old events (issue 23) stays queued by design; no OpenAPI job is left.
      expect(jobs.filter((job) => job.kind !== 'purge-events')).toEqual([]);
    } finally {
      await second.close();
      await third.close();
    }
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { FETCH_BUDGET } from '../../src/server/fetch/budget.js';
import { OPENAPI_LIMITS } from '../../src/server/openapi/limits.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/** An entry whose one operation answers `FANOUT` schemas, each a `$ref` to its own file. */
const FANOUT = 12;
const ENTRY = `openapi: 3.0.3
info: { title: Fan, version: "1.0" }
paths:
  /things:
    get:
      responses:
${Array.from({ length: FANOUT }, (_, i) => `        "${200 + i}":\n          description: Thing ${i}\n          content:\n            application/json:\n              schema: { $ref: "schemas/s${i}.yaml" }\n`).join('')}`;
const SCHEMA = 'type: object\nproperties:\n  name: { type: string }\n';

// OpenAPI spec fetches are under the fetch budget (issue 25), one per job run: a spec whose
// $refs fan out past it fails with the published FETCH_ERROR (FETCH_TIMEOUT for time) and
// fetches no file after the refusal.
describe.each(testDialects())('OpenAPI spec fetches within the fetch budget (%s)', (dialect) => {
  let s: TestServer;
  let origin: Server;
  let url: string;
  const served: string[] = [];
  const saved = { budget: { ...FETCH_BUDGET }, limits: { ...OPENAPI_LIMITS } };
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    origin = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      served.push(path);
      if (path === '/api/fan.yaml') res.end(ENTRY);
      else if (path === '/api/hang.yaml')
        return; // never answers: only a timeout ends its fetch
      else if (path.startsWith('/api/schemas/')) res.end(SCHEMA);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    origin.closeAllConnections();
    await new Promise((r) => origin.close(r));
    await s?.close();
  });
  afterEach(() => {
    Object.assign(FETCH_BUDGET, saved.budget);
    Object.assign(OPENAPI_LIMITS, saved.limits);
  });

  async function processSpec(slug: string, source: string) {
    const made = await s.request('POST', `/v1/orgs/${s.orgId}/openapi`, { body: { slug, source: { url: source } } });
    expect(made.status).toBe(201);
    // Polled until the job is over: its time is the machine's, so the deadline is the test's.
    for (const until = Date.now() + EVENT_WAIT_MS; Date.now() < until;) {
      const res = await s.request('GET', `/v1/orgs/${s.orgId}/openapi/${slug}`);
      if (res.body.processingState === 'complete') return res.body;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`spec ${slug} was not processed within ${EVENT_WAIT_MS / 1000} s`);
  }

  it('processes the whole fan-out within the default budget (13 files)', async () => {
    served.length = 0;
    const spec = await processSpec(`fan-${dialect}`, `${url}/api/fan.yaml`);
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect(served).toHaveLength(FANOUT + 1);
  });

  it('refuses the fetch past the budget with FETCH_ERROR and fetches nothing after it', async () => {
    FETCH_BUDGET.maxFetches = 4;
    served.length = 0;
    const spec = await processSpec(`over-${dialect}`, `${url}/api/fan.yaml`);
    expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(spec.lastProcessedErrors).toEqual([
      { code: 'FETCH_ERROR', message: expect.stringMatching(/not fetched, one OpenAPI spec may fetch at most 4 URLs/) },
    ]);
    expect(spec.lastVersion).toBeUndefined();
    // swagger-parser asks for the $refs together: fetches the budget let through may still be
    // arriving, none past them. What must not happen is waited for, a bounded half second.
    await new Promise((r) => setTimeout(r, 500));
    expect(served[0]).toBe('/api/fan.yaml');
    expect(served.length).toBeLessThanOrEqual(4);
  });

  it("cuts a file's timeout to what is left of the job's time and records FETCH_TIMEOUT", async () => {
    // The file's own timeout is ten minutes and its fetch is never answered: only the job's
    // budget can end it within the test, whatever the machine's load (no clock read here).
    OPENAPI_LIMITS.timeoutMs = 600_000;
    FETCH_BUDGET.totalMs = 800;
    const spec = await processSpec(`hang-${dialect}`, `${url}/api/hang.yaml`);
    expect(spec.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
    // The fetch was given what was left of the 800 ms, never the file's own ten minutes.
    const within = Number(/no answer within (\d+) ms/.exec(spec.lastProcessedErrors[0].message)?.[1]);
    expect(within).toBeGreaterThan(0);
    expect(within).toBeLessThanOrEqual(800);
  });
});

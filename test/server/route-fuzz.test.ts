import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startServer, testDialects, type RegisteredRoute, type TestServer } from '../helpers/server.js';
import { buildFixture, type CallerName, type Fixture } from '../helpers/api-fixture.js';
import { dumpStore, storeChanges } from '../helpers/store-dump.js';
import { seedFromEnv } from '../helpers/seed.js';

/**
 * Issue 24, "Hostile input": fast-check over every route the server registers (found at run time):
 * generated path parameters, query strings and bodies (wrong types, huge strings, unicode and lone
 * surrogates, NUL, deep JSON, `../`, SQL and HTML fragments), and one 5 MB body per resource.
 * Every answer is a 2xx or 3xx (a generated request may be valid) or one of the documented 4xx
 * with `{"error":{"code","message"}}`, never a 500; after every refused request the store is as it
 * was. `FUZZ_SEED` replays a run (the seed is printed, and fast-check names it on failure);
 * `FUZZ_RUNS` sets the runs per route.
 */
const DOCUMENTED_4XX = new Set([400, 401, 403, 404, 409, 413, 415, 422, 429, 431]);
const SEED = seedFromEnv('FUZZ_SEED', 123508, 1_000_000);
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);

const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '../../etc/passwd',
    '..',
    '.',
    '..%2f..%2f',
    '%2e%2e%2f',
    "'; DROP TABLE spaces; --",
    "' OR '1'='1",
    '1; SELECT pg_sleep(0)',
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    'a\u0000b',
    '\u0000',
    '\ud800',
    'x\udfffy',
    '\ud83d',
    '🙂‍🙂',
    '\u202eevil',
    '',
    ' ',
    'null',
    'true',
    '-1',
    '1e309',
    'NaN',
    '{}',
    '[]',
    '%',
    '%zz',
    '\\',
    '//',
    '?a=b',
    '#frag',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constant('x'.repeat(70_000)),
);

/** Nested arrays and objects, deep enough to hurt a recursive reader. */
const deep = (depth: number, object: boolean): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = object ? { a: value } : [value];
  return value;
};

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
  fc.constantFrom(deep(2_000, false), deep(2_000, true)),
);

interface FuzzRequest {
  caller: CallerName;
  params: Record<string, string | null>;
  query: Record<string, string>;
  body?: unknown;
  raw?: string;
}

/** A path segment the way a client would send it; lone surrogates (which URL encoding refuses) as invalid UTF-8. */
function segment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

function propertiesOf(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}

function requestArbitrary(route: RegisteredRoute): fc.Arbitrary<FuzzRequest> {
  const params = (route.url.match(/:[A-Za-z]+/g) ?? []).map((p) => p.slice(1));
  const queryKeys = propertiesOf(route.schema?.querystring);
  const bodyKeys = propertiesOf(route.schema?.body);
  const key = (known: string[]) =>
    known.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, hostileString) : hostileString;
  const text = fc.oneof(hostileString, fc.integer().map(String));
  const paramRecord = fc.record(
    Object.fromEntries(params.map((p) => [p, fc.option(hostileString, { freq: 2, nil: null })])),
  ) as fc.Arbitrary<Record<string, string | null>>;
  const writes = route.method !== 'GET';
  return fc.record({
    caller: fc.constantFrom<CallerName>('admin', 'admin', 'admin', 'read', 'outsider', 'anonymous'),
    params: paramRecord,
    query: fc.dictionary(key(queryKeys), text, { maxKeys: 3 }),
    body: writes
      ? fc.oneof({ weight: 3, arbitrary: fc.dictionary(key(bodyKeys), hostileValue, { maxKeys: 4 }) }, hostileValue)
      : fc.constant(undefined),
    raw: fc.option(
      writes
        ? fc.constantFrom('{', 'not json', '{"a":1}{', `${'['.repeat(50_000)}${']'.repeat(50_000)}`, '"\\ud800"')
        : fc.constant(undefined),
      { freq: 8, nil: undefined },
    ),
  }) as fc.Arbitrary<FuzzRequest>;
}

/** The route's path with each parameter either the fixture's id (null) or the generated text; the wildcard as `../` text. */
function pathOf(route: RegisteredRoute, fx: Fixture, request: FuzzRequest): string {
  const onChangeRequest = route.url.includes('/change-requests/');
  const path = route.url
    .split('/')
    .map((part) => {
      if (part === '*') return request.params['*'] ?? '../../..%2f';
      if (!part.startsWith(':')) return part;
      const name = part.slice(1);
      const given = request.params[name];
      if (given !== null && given !== undefined) return segment(given);
      const alias =
        onChangeRequest && name === 'commentId' ? 'crCommentId' : onChangeRequest && name === 'commentReplyId' ? 'crCommentReplyId' : name;
      return segment(fx.ids[alias] ?? 'unknown');
    })
    .join('/');
  const query = Object.entries(request.query)
    .map(([k, v]) => `${segment(k)}=${segment(v)}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}

async function send(s: TestServer, method: string, path: string, token: string | null, body: string | undefined) {
  const controller = new AbortController();
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers,
    redirect: 'manual',
    signal: controller.signal,
    ...(body !== undefined ? { body } : {}),
  });
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    controller.abort();
    return { status: res.status, text: '' };
  }
  return { status: res.status, text: await res.text() };
}

/** A wrong answer, or undefined: 2xx/3xx, or a documented 4xx with the error body. */
function judge(status: number, text: string): string | undefined {
  if (status < 400) return undefined;
  if (!DOCUMENTED_4XX.has(status)) return `status ${status}`;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (body.error?.code !== status || typeof body.error.message !== 'string' || Object.keys(body).length !== 1)
      return `status ${status} with body ${text.slice(0, 200)}`;
  } catch {
    return `status ${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  return undefined;
}

describe.each(testDialects())('fuzz over every route (%s)', (dialect) => {
  let s: TestServer;
  let fx: Fixture;
  beforeAll(async () => {
    s = await startServer(dialect);
    fx = await buildFixture(s);
  }, 120_000);
  afterAll(async () => {
    await fx?.close();
    await s?.close();
  });

  // Reads first, deletes last, so that fewer routes meet a fixture a generated valid write removed.
  const order = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const routes = () =>
    s.routes
      .filter((r) => r.url.startsWith('/v1/') && order.includes(r.method))
      .sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method));

  it(`answers generated requests with documented 4xx only, and a refused request changes nothing (FUZZ_SEED=${SEED})`, async () => {
    process.stdout.write(`route fuzz (${dialect}): FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}\n`);
    let sent = 0;
    let refused = 0;
    // The store after one request is the store before the next (no job runs: the test server's
    // job interval is an hour), so one dump per request serves both.
    let before = await dumpStore(s);
    for (const [i, route] of routes().entries()) {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route), async (request) => {
          const path = pathOf(route, fx, request);
          const body = request.raw ?? (request.body !== undefined ? JSON.stringify(request.body) : undefined);
          const res = await send(s, route.method, path, fx.callers[request.caller].token, body);
          const after = await dumpStore(s);
          const changes = storeChanges(before, after);
          before = after;
          sent += 1;
          const wrong = judge(res.status, res.text);
          expect(wrong, `${route.method} ${path.slice(0, 300)} as ${request.caller}`).toBeUndefined();
          if (res.status >= 400) {
            refused += 1;
            expect(changes, `${route.method} ${path.slice(0, 300)}: refused (${res.status}) but the store changed`).toEqual({});
          }
        }),
        { numRuns: RUNS, seed: SEED + i, endOnFailure: true },
      );
    }
    process.stdout.write(`route fuzz (${dialect}): ${routes().length} routes, ${sent} generated requests, ${refused} refused\n`);
  }, 600_000);

  it('refuses a 5 MB body on one write route of each resource with a documented 4xx and changes nothing', async () => {
    const huge = JSON.stringify({ title: 'x'.repeat(5 * 1024 * 1024), markdown: 'y' });
    const seen = new Set<string>();
    let sent = 0;
    for (const route of routes()) {
      if (route.method === 'GET') continue;
      const resource = route.url.split('/').filter((p) => p && !p.startsWith(':'))[route.url.startsWith('/v1/orgs/') ? 2 : 1] ?? route.url;
      if (seen.has(resource)) continue;
      seen.add(resource);
      const path = pathOf(route, fx, { caller: 'admin', params: {}, query: {} });
      const before = await dumpStore(s);
      const res = await send(s, route.method, path, fx.adminToken, huge);
      sent += 1;
      expect(judge(res.status, res.text), `${route.method} ${path}`).toBeUndefined();
      expect(res.status, `${route.method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(storeChanges(before, await dumpStore(s)), `${route.method} ${path}`).toEqual({});
    }
    process.stdout.write(`route fuzz (${dialect}): 5 MB bodies on ${sent} resources\n`);
    expect(sent).toBeGreaterThan(10);
  }, 300_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startServer, testDialects, type ApiResponse, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { ERROR_CODES } from '../../src/model/index.js';
import { encodeCursor } from '../../src/server/util/cursor.js';

const CATALOGUE_STATUSES = new Set<number>(Object.values(ERROR_CODES));

/** Any answer: never a 5xx; a failure has exactly the catalogue's body and no internals. */
function expectWellFormed(res: ApiResponse, context: unknown): void {
  const where = JSON.stringify(context).slice(0, 500);
  expect(res.status, where).toBeLessThan(500);
  if (res.status < 400) return;
  expect(CATALOGUE_STATUSES.has(res.status), where).toBe(true);
  expect(res.headers.get('content-type'), where).toMatch(/^application\/json/);
  expect(res.body, where).toEqual({ error: { code: res.status, message: expect.any(String) } });
  expectNoInternals(res.body.error.message);
}

function expectNoInternals(message: string): void {
  expect(message).not.toMatch(/\n\s+at /);
  expect(message).not.toMatch(/node_modules|\/src\/|\.ts:\d+|SQLITE_|syntax error|relation "/i);
}

describe.each(testDialects())('error answers (%s)', (dialect) => {
  let s: TestServer;
  let fuzzOrg: { id: string; adminToken: string };

  beforeAll(async () => {
    s = await startServer(dialect);
    fuzzOrg = await s.organization('Fuzzed org');
  });
  afterAll(async () => {
    await s?.close();
  });

  const patchOrg = (options: Parameters<TestServer['request']>[2]) => s.request('PATCH', `/v1/orgs/${s.orgId}`, options);

  it('takes an empty JSON body as no body: fine where the body is optional, 400 where it is required', async () => {
    const created = await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { raw: '' });
    expect(created.status).toBe(201);
    const required = await s.request('PATCH', `/v1/orgs/${s.orgId}`, { raw: '' });
    expectError(required, 400, /body/);
  });

  it('answers 400 for a body that is not JSON', async () => {
    for (const raw of ['{"title":', '{title: "x"}', "{'title':'x'}", 'undefined', '{"a":1}}']) {
      const res = await patchOrg({ raw });
      expectError(res, 400, /JSON/);
      expectNoInternals(res.body.error.message);
    }
    expectError(await patchOrg({ raw: '' }), 400, /body must be a JSON object/);
  });

  it('answers 400 for JSON that is not an object where an object is expected', async () => {
    for (const raw of ['null', '[]', '"title"', '42', 'true']) expectError(await patchOrg({ raw }), 400, /^body/);
  });

  it('answers 400 for prototype-poisoning keys', async () => {
    expectError(await patchOrg({ raw: '{"__proto__":{"admin":true}}' }), 400);
    expectError(await patchOrg({ raw: '{"constructor":{"prototype":{"admin":true}}}' }), 400);
  });

  it('answers 413 for a body over the 10 MiB limit', async () => {
    const raw = JSON.stringify({ title: 'x'.repeat(11 * 1024 * 1024) });
    const res = await patchOrg({ raw });
    expectError(res, 413, /larger/);
    // The server is still fine afterwards.
    expect((await s.request('GET', '/v1/user')).status).toBe(200);
  });

  it('answers 415 for a body that is not application/json', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      expectError(await patchOrg({ raw: '{"title":"Plain text"}', headers: { 'content-type': type } }), 415, /application\/json/);
    }
    expect((await s.request('GET', `/v1/orgs/${s.orgId}`)).body.title).not.toBe('Plain text');
  });

  it('answers 404 with the error body for an unknown route or method', async () => {
    expectError(await s.request('GET', '/v1/no-such-thing'), 404, /no route for GET \/v1\/no-such-thing/);
    expectError(await s.request('GET', '/no-prefix'), 404);
    expectError(await s.request('DELETE', '/v1/orgs'), 404, /DELETE/);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/nothing`, { body: {} }), 404);
  });

  it('checks the token before saying a route does not exist', async () => {
    expectError(await s.request('GET', '/v1/no-such-thing', { token: null }), 401);
  });

  it('answers 400 naming unknown body fields', async () => {
    expectError(await patchOrg({ body: { title: 'Fine title', colour: 'red' } }), 400, /unknown field `colour`/);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'x', archived: true } }), 400, /body.*`archived`/);
  });

  it('does not coerce body types, but coerces query strings', async () => {
    expectError(await patchOrg({ body: { title: 12345 } }), 400, /body\.title must be a string/);
    expectError(await patchOrg({ body: { sso: 'true' } }), 400, /body\.sso must be a boolean/);
    expectError(await patchOrg({ body: { ai: 1 } }), 400, /body\.ai/);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { empty: 'false' } }), 400, /body\.empty/);
    const res = await s.request('GET', '/v1/orgs?limit=5');
    expect(res.status).toBe(200);
    expectError(await s.request('GET', '/v1/orgs?limit=5.5'), 400, /query\.limit/);
    expectError(await s.request('GET', '/v1/orgs?limit=5&limit=6'), 400, /query\.limit/);
  });

  it('answers 400 for paths the router cannot read', async () => {
    expectError(await s.request('GET', '/v1/orgs/%E0%A4%A'), 400, /percent-encoding/);
    expectError(await s.request('GET', `/v1/orgs/${'a'.repeat(3000)}`), 400, /path segment/);
    expectError(await s.request('GET', `/v1/orgs/${'a'.repeat(100)}`), 400, /path\.organizationId/);
  });

  it('answers 400, never a store failure, for NUL characters anywhere', async () => {
    expectError(await patchOrg({ body: { title: 'a\u0000b' } }), 400, /body\.title.*NUL/);
    expectError(await patchOrg({ body: { emailDomains: ['a.test', 'b\u0000.test'] } }), 400, /body\.emailDomains\.1/);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: '\u0000' } }), 400, /NUL/);
    expectError(await s.request('GET', `/v1/orgs?page=%00`), 400, /querystring\.page/);
    expectError(await s.request('GET', `/v1/orgs/a%00b`), 400);
  });

  it('answers 400 for a page cursor another list issued or that was forged', async () => {
    expectError(await s.request('GET', `/v1/orgs?page=${encodeCursor([1.5, 'x'])}`), 400, /page/);
    expectError(await s.request('GET', `/v1/orgs?page=${encodeCursor(['a\u0000', 'x'])}`), 400, /page/);
    const collection = await s.request('POST', `/v1/orgs/${s.orgId}/collections`, { body: { title: 'Paged' } });
    expect(collection.status, JSON.stringify(collection.body)).toBe(201);
    // This list sorts by a number; a text key would make PostgreSQL fail the comparison.
    const forged = await s.request('GET', `/v1/collections/${collection.body.id}/spaces?page=${encodeCursor(['2024-01-01', 'x'])}`);
    expectError(forged, 400, /page/);
    const fine = await s.request('GET', `/v1/collections/${collection.body.id}/spaces?page=${encodeCursor([1, 'x'])}`);
    expect(fine.status).toBe(200);
  });

  // Random input at a few endpoints: whatever arrives, the answer is a 2xx or a well-formed 4xx.
  const fieldNames = fc.constantFrom(
    'title',
    'emoji',
    'parent',
    'visibility',
    'editMode',
    'empty',
    'hostname',
    'emailDomains',
    'defaultRole',
    'defaultContent',
    'logo',
    'sso',
    'ai',
    'inviteLinks',
    '__proto__',
    'constructor',
    '',
  );
  const anyString = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('\u0000', 'admin', 'inherit', 'site', 'https://x.test/logo.png'),
  );
  const anyValue = fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 3 }),
    anyString,
    fc.array(anyString, { maxLength: 4 }),
    fc.record({ type: fc.constantFrom('site', 'space'), site: anyString }, { requiredKeys: [] }),
  );
  // Mostly valid bodies with some fields off reach the store, where bad input hurts most.
  const or = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: anyValue });
  const spaceBody = fc.record(
    {
      title: or(fc.constantFrom('Docs', 'a\u0000b', 't'.repeat(100))),
      emoji: or(fc.constantFrom('1f389', '', '🎉')),
      visibility: or(fc.constantFrom('private', 'public', 'unlisted', 'share-link', 'in-collection')),
      editMode: or(fc.constantFrom('live', 'locked')),
      empty: or(fc.boolean()),
    },
    { requiredKeys: [] },
  );
  const orgBody = fc.record(
    {
      title: or(fc.constantFrom('Docs', 'a\u0000b', 't'.repeat(255))),
      hostname: or(fc.constantFrom('fuzz-host', 'h\u0000st')),
      emailDomains: or(fc.array(fc.constantFrom('a.test', 'B.test'), { maxLength: 3 })),
      defaultRole: or(fc.constantFrom('admin', 'read', null)),
      defaultContent: or(fc.constantFrom(null, { type: 'site', site: 's1' })),
      logo: or(fc.constantFrom(null, 'https://x.test/l.png')),
      sso: or(fc.boolean()),
    },
    { requiredKeys: [] },
  );
  const anyBody = fc.oneof(
    fc.dictionary(fc.oneof(fieldNames, fc.string({ maxLength: 8 })), anyValue, { maxKeys: 5 }),
    fc.jsonValue({ maxDepth: 4 }),
  );
  const request = fc.oneof(
    fc.tuple(fc.constant('spaces' as const), fc.oneof(spaceBody, anyBody)),
    fc.tuple(fc.constant('org' as const), fc.oneof(orgBody, anyBody)),
  );

  it('never fails with a 5xx on random JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(request, async ([target, value]) => {
        const raw = JSON.stringify(value) ?? 'null';
        const res =
          target === 'spaces'
            ? await s.request('POST', `/v1/orgs/${fuzzOrg.id}/spaces`, { raw, token: fuzzOrg.adminToken })
            : await s.request('PATCH', `/v1/orgs/${fuzzOrg.id}`, { raw, token: fuzzOrg.adminToken });
        expectWellFormed(res, { target, raw });
      }),
      { numRuns: 100 },
    );
  });

  it('never fails with a 5xx on random query strings', async () => {
    const queryValue = fc.oneof(
      fc.integer({ min: -5, max: 2000 }).map(String),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.tuple(fc.oneof(fc.string(), fc.double()), fc.string()).map(([k, id]) => encodeCursor([k, id])),
    );
    const query = fc.oneof(
      fc
        .array(fc.tuple(fc.oneof(fc.constantFrom('limit', 'page', 'nested'), fc.string({ maxLength: 6 })), queryValue), { maxLength: 4 })
        .map((pairs) => {
          const params = new URLSearchParams();
          for (const [k, v] of pairs) params.append(k, v.replace(/[\uD800-\uDFFF]/g, ''));
          return params.toString();
        }),
      // Raw text straight into the URL, broken percent-escapes included.
      fc.stringMatching(/^[A-Za-z0-9%=&+._~!$'()*,;:@/?-]{0,40}$/),
    );
    await fc.assert(
      fc.asyncProperty(query, fc.constantFrom('/v1/orgs', `/v1/orgs/${fuzzOrg.id}/spaces`), async (q, path) => {
        const res = await s.request('GET', `${path}?${q}`, { token: fuzzOrg.adminToken });
        expectWellFormed(res, { path, q });
      }),
      { numRuns: 100 },
    );
  });

  it('never fails with a 5xx on random path segments', async () => {
    const segment = fc.oneof(
      fc.string({ minLength: 1, maxLength: 80 }).map((v) => encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, 'x'))),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map((v) => encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, 'x'))),
      fc.stringMatching(/^[A-Za-z0-9%._~!$&'()*+,;=:@-]{1,40}$/),
    );
    const route = fc.constantFrom(
      (p: string) => ['GET', `/v1/orgs/${p}`] as const,
      (p: string) => ['PATCH', `/v1/orgs/${p}`] as const,
      (p: string) => ['POST', `/v1/orgs/${p}/spaces`] as const,
      (p: string) => ['GET', `/v1/spaces/${p}`] as const,
      (p: string) => ['GET', `/v1/email-domains/${p}/orgs`] as const,
    );
    await fc.assert(
      fc.asyncProperty(segment, route, async (p, make) => {
        const [method, path] = make(p);
        const res = await s.request(method, path, { token: fuzzOrg.adminToken, ...(method === 'GET' ? {} : { body: {} }) });
        expectWellFormed(res, { method, path });
      }),
      { numRuns: 100 },
    );
  });
});

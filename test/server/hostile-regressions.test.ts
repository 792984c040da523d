import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { dumpStore, expectStoreUnchanged } from '../helpers/store-dump.js';

/**
 * The defects the generated tests of issue 24 found (test/server/authorization-matrix.test.ts,
 * test/server/route-fuzz.test.ts), each pinned by a test that fails without its fix whatever seed
 * the fuzz draws.
 */
describe.each(testDialects())('defects found by the authorization matrix and the route fuzz (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a section group on a site without sections is a 409 and stores nothing (was stored, then answered 404)', async () => {
    const site = (await s.request('POST', `/v1/orgs/${s.orgId}/sites`, { body: { title: 'No sections' } })).body;
    const before = await dumpStore(s);
    expectError(
      await s.request('POST', `/v1/orgs/${s.orgId}/sites/${site.id}/section-groups`, { body: { title: 'G' } }),
      409,
      /no sections/,
    );
    await expectStoreUnchanged(s, before, 'section group refused');
    const groups = await s.request('GET', `/v1/orgs/${s.orgId}/sites/${site.id}/section-groups`);
    expect(groups.body.items).toEqual([]);
  });

  it('a write that takes no body refuses one with fields, and still takes none or {} (was 200 with any body)', async () => {
    const space = await createSpace(s, { title: 'Bodiless' });
    const before = await dumpStore(s);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/duplicate`, { body: { title: 'x'.repeat(100_000) } }), 400, /title/);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/ping`, { body: [1, 2] }), 400);
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/ping`, { raw: 'null' }), 400);
    await expectStoreUnchanged(s, before, 'bodies refused');
    expect((await s.request('POST', `/v1/spaces/${space.id}/duplicate`)).status).toBe(201);
    expect((await s.request('POST', `/v1/spaces/${space.id}/duplicate`, { body: {} })).status).toBe(201);
    expect(
      (await s.request('POST', `/v1/spaces/${space.id}/duplicate`, { raw: '', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(201);
  });

  it("a request line over Node's 16 KiB is a 431 with the API's error body (was fastify's own body)", async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${s.url}/v1/orgs?${'q'.repeat(20_000)}=1`, { headers: { authorization: `Bearer ${s.token}` } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
    expect(JSON.parse(body)).toEqual({ error: { code: 431, message: expect.stringMatching(/16 KiB/) } });
  });

  it("a pending SAML provider's service-provider metadata is served (was a 500)", async () => {
    const provider = (await s.request('POST', `/v1/orgs/${s.orgId}/saml`, { body: { label: 'Pending' } })).body;
    expect(provider.status).toBe('pending');
    const res = await fetch(`${s.url}/v1/sso/saml/${provider.id}/metadata`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`/v1/sso/saml/${provider.id}/acs`);
  });
});

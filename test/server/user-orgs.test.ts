import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';

describe.each(testDialects())('user and organizations (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('GET /v1/user returns the caller', async () => {
    const res = await s.request('GET', '/v1/user');
    expectSpec(res, 'GET', '/user', 200);
    expect(res.body).toMatchObject({ object: 'user', displayName: 'admin', email: 'admin@localhost' });
    expect(res.body.urls.location).toBe(`${s.url}/v1/users/${res.body.id}`);
  });

  it('answers 401 without a token and with an unknown one', async () => {
    expectError(await s.request('GET', '/v1/user', { token: null }), 401, /Authorization/);
    expectError(await s.request('GET', '/v1/user', { token: 'nope' }), 401, /unknown or revoked/);
  });

  it('GET /v1/orgs lists the caller organizations', async () => {
    const res = await s.request('GET', '/v1/orgs');
    expectSpec(res, 'GET', '/orgs', 200);
    expect(res.body.count).toBe(1);
    expect(res.body.items[0]).toMatchObject({ object: 'organization', id: s.orgId, title: 'Default' });
    expect(res.body.items[0].permissions.admin).toBe(true);
  });

  it('GET /v1/orgs/{id} is 404 for a non-member', async () => {
    const stranger = await s.user();
    expectError(await s.request('GET', `/v1/orgs/${s.orgId}`, { token: stranger.token }), 404);
    const member = await s.user({ org: s.orgId, role: 'read' });
    const res = await s.request('GET', `/v1/orgs/${s.orgId}`, { token: member.token });
    expectSpec(res, 'GET', '/orgs/{organizationId}', 200);
    expect(res.body.permissions).toMatchObject({ view: true, admin: false, createContent: false });
  });
});

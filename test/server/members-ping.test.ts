import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';

describe.each(testDialects())('POST /v1/orgs/{id}/ping (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const jwks = async (orgId: string) => {
    // Published without authentication: whoever is handed a token can check it.
    const res = await s.request('GET', `/v1/orgs/${orgId}/visitor-claims/jwks.json`, { token: null });
    expect(res.status).toBe(200);
    return createLocalJWKSet(res.body);
  };

  it("sets the caller's lastSeenAt and answers claims signed with the organization's published key", async () => {
    const org = await s.organization('Ping org');
    const editor = await s.user({ org: org.id, role: 'edit', name: 'Edith' });
    const res = await s.request('POST', `/v1/orgs/${org.id}/ping`, { token: editor.token });
    expectSpec(res, 'POST', '/orgs/{organizationId}/ping', 200);
    const token = res.body.serviceVisitorClaims as string;
    expect(decodeProtectedHeader(token).alg).toBe('ES256');
    const { payload } = await jwtVerify(token, await jwks(org.id), { audience: org.id, currentDate: s.clock.now() });
    expect(payload).toMatchObject({
      sub: editor.id,
      organization: org.id,
      role: 'edit',
      teams: [],
      email: editor.email,
      name: 'Edith',
      iss: `${s.url}/v1/orgs/${org.id}`,
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    const member = await s.request('GET', `/v1/orgs/${org.id}/members/${editor.id}`, { token: org.adminToken });
    expect(Date.parse(member.body.lastSeenAt)).toBe(payload.iat! * 1000 + (Date.parse(member.body.lastSeenAt) % 1000));
  });

  it('expires after an hour', async () => {
    const org = await s.organization('Expiry org');
    const reader = await s.user({ org: org.id, role: 'read' });
    const token = (await s.request('POST', `/v1/orgs/${org.id}/ping`, { token: reader.token })).body.serviceVisitorClaims;
    const keys = await jwks(org.id);
    const later = new Date(s.clock.now().getTime() + 3601 * 1000);
    await expect(jwtVerify(token, keys, { currentDate: later })).rejects.toBeInstanceOf(errors.JWTExpired);
    await expect(jwtVerify(token, keys, { currentDate: new Date(s.clock.now().getTime() + 3500 * 1000) })).resolves.toBeDefined();
  });

  it("does not verify with another organization's key, and guests get claims too", async () => {
    const a = await s.organization('Org A');
    const b = await s.organization('Org B');
    const guest = await s.user({ org: a.id, role: null });
    const res = await s.request('POST', `/v1/orgs/${a.id}/ping`, { token: guest.token });
    expect(res.status).toBe(200);
    const { payload } = await jwtVerify(res.body.serviceVisitorClaims, await jwks(a.id), { currentDate: s.clock.now() });
    expect(payload.role).toBe('guest');
    await expect(jwtVerify(res.body.serviceVisitorClaims, await jwks(b.id), { currentDate: s.clock.now() })).rejects.toThrow();
    // The key stays the same from one ping to the next.
    const again = await s.request('POST', `/v1/orgs/${a.id}/ping`, { token: guest.token });
    await expect(jwtVerify(again.body.serviceVisitorClaims, await jwks(a.id), { currentDate: s.clock.now() })).resolves.toBeDefined();
  });

  it('is 404 for strangers and unknown organizations, 401 without a token', async () => {
    const org = await s.organization('Closed org');
    const stranger = await s.user();
    expectError(await s.request('POST', `/v1/orgs/${org.id}/ping`, { token: stranger.token }), 404);
    expectError(await s.request('POST', `/v1/orgs/${org.id}/ping`, { token: null }), 401);
    expectError(await s.request('GET', '/v1/orgs/nope/visitor-claims/jwks.json', { token: null }), 404);
  });
});

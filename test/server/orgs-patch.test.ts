import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';

describe.each(testDialects())('PATCH /v1/orgs/{id} (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const patch = (body: unknown, token?: string) => s.request('PATCH', `/v1/orgs/${s.orgId}`, { body, ...(token ? { token } : {}) });

  async function patchOk(body: Record<string, unknown>) {
    const res = await patch(body);
    expectSpec(res, 'PATCH', '/orgs/{organizationId}', 200);
    // The change is stored, not only echoed.
    const read = await s.request('GET', `/v1/orgs/${s.orgId}`);
    expectSpec(read, 'GET', '/orgs/{organizationId}', 200);
    expect(read.body).toEqual(res.body);
    return res.body;
  }

  it('changes the title within 2..255 characters', async () => {
    expect((await patchOk({ title: 'ab' })).title).toBe('ab');
    expect((await patchOk({ title: 't'.repeat(255) })).title).toBe('t'.repeat(255));
    expectError(await patch({ title: 'a' }), 400, /body\.title.*at least 2/);
    expectError(await patch({ title: 't'.repeat(256) }), 400, /body\.title.*at most 255/);
    expectError(await patch({ title: 5 }), 400, /body\.title/);
    expect((await patchOk({ title: 'Docs team' })).title).toBe('Docs team');
  });

  it('changes the hostname within 3..32 characters', async () => {
    expect((await patchOk({ hostname: 'abc' })).hostname).toBe('abc');
    expect((await patchOk({ hostname: 'h'.repeat(32) })).hostname).toBe('h'.repeat(32));
    expectError(await patch({ hostname: 'ab' }), 400, /body\.hostname.*at least 3/);
    expectError(await patch({ hostname: 'h'.repeat(33) }), 400, /body\.hostname.*at most 32/);
  });

  it('answers 409 for a hostname another organization uses, and keeps its own', async () => {
    const other = await s.organization('Other');
    const taken = await s.request('PATCH', `/v1/orgs/${other.id}`, { token: other.adminToken, body: { hostname: 'taken-host' } });
    expect(taken.status).toBe(200);
    expectError(await patch({ hostname: 'taken-host' }), 409, /hostname/);
    await patchOk({ hostname: 'mine-host' });
    // Setting the hostname it already has is no conflict.
    expect((await patchOk({ hostname: 'mine-host' })).hostname).toBe('mine-host');
  });

  it('changes the e-mail domains', async () => {
    expect((await patchOk({ emailDomains: ['docs.test', 'corp.test'] })).emailDomains).toEqual(['docs.test', 'corp.test']);
    expect((await patchOk({ emailDomains: [] })).emailDomains).toEqual([]);
    expectError(await patch({ emailDomains: 'docs.test' }), 400, /body\.emailDomains/);
    expectError(await patch({ emailDomains: ['not a domain'] }), 400, /body\.emailDomains\.0/);
  });

  it('changes the default role, null meaning guests', async () => {
    for (const role of ['admin', 'create', 'review', 'edit', 'comment', 'read']) {
      expect((await patchOk({ defaultRole: role })).defaultRole).toBe(role);
    }
    expect((await patchOk({ defaultRole: null })).defaultRole).toBeNull();
    expectError(await patch({ defaultRole: 'owner' }), 400, /body\.defaultRole/);
  });

  it('sets and clears the default content', async () => {
    const site = (await s.request('POST', `/v1/orgs/${s.orgId}/sites`, { body: { title: 'Home' } })).body.id as string;
    const set = await patchOk({ defaultContent: { type: 'site', site } });
    expect(set.defaultContent).toEqual({ type: 'site', site });
    // Only a site of this organization (test/server/isolation.test.ts found another's kept).
    const other = await s.organization();
    const foreign = (await s.request('POST', `/v1/orgs/${other.id}/sites`, { token: other.adminToken, body: { title: 'Theirs' } })).body.id;
    expectError(await patch({ defaultContent: { type: 'site', site: foreign } }), 400, /body\.defaultContent\.site/);
    expectError(await patch({ defaultContent: { type: 'site', site: 'site-1' } }), 400, /body\.defaultContent\.site/);
    expect((await patchOk({})).defaultContent).toEqual({ type: 'site', site });
    const cleared = await patchOk({ defaultContent: null });
    expect(cleared.defaultContent).toBeUndefined();
    expectError(await patch({ defaultContent: { type: 'space', site: 'x' } }), 400, /body\.defaultContent/);
    expectError(await patch({ defaultContent: { type: 'site' } }), 400, /body\.defaultContent/);
  });

  it('sets and clears the logo (a URI of at most 2048 characters)', async () => {
    const url = `https://cdn.test/${'l'.repeat(2048 - 'https://cdn.test/'.length)}`;
    expect(url).toHaveLength(2048);
    expect((await patchOk({ logo: url })).urls.logo).toBe(url);
    expectError(await patch({ logo: `${url}x` }), 400, /body\.logo/);
    expectError(await patch({ logo: 'not a uri' }), 400, /body\.logo/);
    expect((await patchOk({ logo: null })).urls.logo).toBeUndefined();
  });

  it('switches sso, ai and invite links', async () => {
    for (const value of [true, false]) {
      const org = await patchOk({ sso: value, ai: value, inviteLinks: value });
      expect(org).toMatchObject({ sso: value, ai: value, inviteLinks: value });
    }
    expectError(await patch({ sso: 'true' }), 400, /body\.sso/);
    expectError(await patch({ inviteLinks: 1 }), 400, /body\.inviteLinks/);
  });

  it('leaves unmentioned fields alone and accepts an empty body', async () => {
    const before = await patchOk({ title: 'Stable', ai: true });
    const after = await patchOk({});
    expect(after).toEqual(before);
    expect((await patchOk({ sso: true })).title).toBe('Stable');
  });

  it('rejects unknown fields, naming them', async () => {
    expectError(await patch({ plan: 'pro' }), 400, /plan/);
  });

  it('is 403 for a member below admin and 404 for a non-member', async () => {
    for (const role of ['create', 'read', null] as const) {
      const member = await s.user({ org: s.orgId, role });
      expectError(await patch({ title: 'Taken over' }, member.token), 403, /admin/);
    }
    const stranger = await s.user();
    expectError(await patch({ title: 'Taken over' }, stranger.token), 404);
    expectError(await s.request('PATCH', '/v1/orgs/no-such-org', { body: { title: 'x y' } }), 404);
    expect((await s.request('GET', `/v1/orgs/${s.orgId}`)).body.title).not.toBe('Taken over');
  });

  it('lets another admin change the organization', async () => {
    const admin = await s.user({ org: s.orgId, role: 'admin' });
    const res = await patch({ title: 'By a second admin' }, admin.token);
    expectSpec(res, 'PATCH', '/orgs/{organizationId}', 200);
    expect(res.body.permissions.admin).toBe(true);
  });
});

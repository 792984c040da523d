import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { specHasOperation } from '../helpers/spec.js';
import { upsertMember } from '../../src/server/store/organizations.js';

describe.each(testDialects())('listing organizations (%s)', (dialect) => {
  let s: TestServer;
  let adminId: string;
  /** Every organization the bootstrap admin belongs to, the default one first. */
  const mine: string[] = [];

  beforeAll(async () => {
    s = await startServer(dialect);
    adminId = (await s.request('GET', '/v1/user')).body.id;
    mine.push(s.orgId);
    for (let i = 0; i < 6; i += 1) {
      const org = await s.organization(`Org ${i}`);
      // Alternate roles so the listing has to compute permissions per organization.
      await upsertMember(
        s.server.db.kysely,
        { orgId: org.id, userId: adminId, role: i % 2 === 0 ? 'read' : 'admin' },
        s.clock.now().toISOString(),
      );
      mine.push(org.id);
    }
    // An organization the admin is not in never shows up.
    await s.organization('Not mine');
  });
  afterAll(async () => {
    await s?.close();
  });

  async function walk(limit: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const query = new URLSearchParams({ limit: String(limit), ...(page ? { page } : {}) });
      const res = await s.request('GET', `/v1/orgs?${query}`);
      expectSpec(res, 'GET', '/orgs', 200);
      expect(res.body.count).toBe(res.body.items.length);
      expect(res.body.items.length).toBeLessThanOrEqual(limit);
      ids.push(...res.body.items.map((o: { id: string }) => o.id));
      page = res.body.next?.page;
      pages += 1;
      expect(pages).toBeLessThan(50);
    } while (page);
    return { ids, pages };
  }

  it('pages through every organization of the caller exactly once', async () => {
    for (const limit of [1, 2, 3, 7, 1000]) {
      const { ids, pages } = await walk(limit);
      expect(ids).toHaveLength(mine.length);
      expect(new Set(ids)).toEqual(new Set(mine));
      expect(pages).toBe(Math.max(1, Math.ceil(mine.length / limit)));
    }
  });

  it('ends the list without `next` when the last page is exactly full', async () => {
    const res = await s.request('GET', `/v1/orgs?limit=${mine.length}`);
    expectSpec(res, 'GET', '/orgs', 200);
    expect(res.body.count).toBe(mine.length);
    expect(res.body.next).toBeUndefined();
  });

  it('uses the default limit without `limit`', async () => {
    const res = await s.request('GET', '/v1/orgs');
    expectSpec(res, 'GET', '/orgs', 200);
    expect(res.body.count).toBe(mine.length);
  });

  it('computes permissions from the caller role in each organization', async () => {
    const res = await s.request('GET', '/v1/orgs?limit=1000');
    const byId = new Map<string, { permissions: { admin: boolean; view: boolean } }>(res.body.items.map((o: { id: string }) => [o.id, o]));
    for (const [i, id] of mine.slice(1).entries()) {
      expect(byId.get(id)!.permissions.view).toBe(true);
      expect(byId.get(id)!.permissions.admin).toBe(i % 2 === 1);
    }
  });

  it('keeps paging stable when organizations are joined and left between pages', async () => {
    const first = await s.request('GET', '/v1/orgs?limit=3');
    const seen: string[] = first.body.items.map((o: { id: string }) => o.id);
    // Leave one organization not yet listed, join a new one (created after all others).
    const leaving = mine.find((id) => !seen.includes(id))!;
    await s.server.db.kysely.deleteFrom('members').where('org_id', '=', leaving).where('user_id', '=', adminId).execute();
    const fresh = await s.organization('Joined later');
    await upsertMember(s.server.db.kysely, { orgId: fresh.id, userId: adminId, role: 'read' }, s.clock.now().toISOString());
    try {
      let page: string | undefined = first.body.next.page;
      while (page) {
        const res = await s.request('GET', `/v1/orgs?limit=3&page=${encodeURIComponent(page)}`);
        expectSpec(res, 'GET', '/orgs', 200);
        seen.push(...res.body.items.map((o: { id: string }) => o.id));
        page = res.body.next?.page;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).not.toContain(leaving);
      expect(seen).toContain(fresh.id);
      for (const id of mine) if (id !== leaving) expect(seen).toContain(id);
    } finally {
      await upsertMember(s.server.db.kysely, { orgId: leaving, userId: adminId, role: 'read' }, s.clock.now().toISOString());
      await s.server.db.kysely.deleteFrom('members').where('org_id', '=', fresh.id).where('user_id', '=', adminId).execute();
    }
  });

  it('rejects a limit out of 1..1000 and a page it never issued', async () => {
    expectError(await s.request('GET', '/v1/orgs?limit=0'), 400, /limit/);
    expectError(await s.request('GET', '/v1/orgs?limit=1001'), 400, /limit/);
    expectError(await s.request('GET', '/v1/orgs?limit=ten'), 400, /limit/);
    expectError(await s.request('GET', '/v1/orgs?page=not-a-cursor'), 400, /page/);
    expectError(await s.request('GET', '/v1/orgs?sort=title'), 400, /sort/);
  });

  it('GET /v1/orgs/{id} answers the organization with the caller permissions', async () => {
    const res = await s.request('GET', `/v1/orgs/${mine[1]}`);
    expectSpec(res, 'GET', '/orgs/{organizationId}', 200);
    expect(res.body).toMatchObject({ id: mine[1], title: 'Org 0', plan: 'free', trial: { status: 'notapplicable' } });
    expect(res.body.urls.location).toBe(`${s.url}/v1/orgs/${mine[1]}`);
    expectError(await s.request('GET', '/v1/orgs/no-such-org'), 404);
  });
});

describe.each(testDialects())('organizations by e-mail domain (%s)', (dialect) => {
  let s: TestServer;
  let claiming: { id: string; adminToken: string; adminId: string };
  let other: { id: string; adminToken: string; adminId: string };

  beforeAll(async () => {
    s = await startServer(dialect);
    claiming = await s.organization('Claims example.test');
    other = await s.organization('Claims elsewhere');
    await patchDomains(claiming, ['Example.TEST', 'acme.test']);
    await patchDomains(other, ['acme.test']);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function patchDomains(org: { id: string; adminToken: string }, emailDomains: string[]) {
    const res = await s.request('PATCH', `/v1/orgs/${org.id}`, { token: org.adminToken, body: { emailDomains } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  it('is an operation of the published spec', () => {
    expect(specHasOperation('GET', '/email-domains/{emailDomain}/orgs')).toBe(true);
  });

  it('shows members the organizations claiming the domain', async () => {
    const res = await s.request('GET', '/v1/email-domains/acme.test/orgs', { token: claiming.adminToken });
    expectSpec(res, 'GET', '/email-domains/{emailDomain}/orgs', 200);
    expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([claiming.id]);
    expect(res.body.organizations[0].permissions.admin).toBe(true);
  });

  it('shows callers whose e-mail is on the domain every claiming organization', async () => {
    // Test users have addresses on example.test.
    const outsider = await s.user();
    expect(outsider.email.endsWith('@example.test')).toBe(true);
    const res = await s.request('GET', '/v1/email-domains/example.test/orgs', { token: outsider.token });
    expectSpec(res, 'GET', '/email-domains/{emailDomain}/orgs', 200);
    expect(res.body.organizations.map((o: { id: string }) => o.id)).toEqual([claiming.id]);
    expect(res.body.organizations[0].permissions).toMatchObject({ view: false, admin: false });
    // Domains are compared without case.
    const upper = await s.request('GET', '/v1/email-domains/EXAMPLE.test/orgs', { token: outsider.token });
    expect(upper.body.organizations.map((o: { id: string }) => o.id)).toEqual([claiming.id]);
  });

  it('shows nobody else which organizations claim a domain', async () => {
    const outsider = await s.user();
    const res = await s.request('GET', '/v1/email-domains/acme.test/orgs', { token: outsider.token });
    expectSpec(res, 'GET', '/email-domains/{emailDomain}/orgs', 200);
    expect(res.body).toEqual({ organizations: [] });
    const nobody = await s.request('GET', '/v1/email-domains/unclaimed.test/orgs', { token: claiming.adminToken });
    expectSpec(nobody, 'GET', '/email-domains/{emailDomain}/orgs', 200);
    expect(nobody.body).toEqual({ organizations: [] });
  });

  it('stores domains lower-cased and without duplicates', async () => {
    await patchDomains(other, ['acme.test', 'ACME.test', 'b.test']);
    const res = await s.request('GET', `/v1/orgs/${other.id}`, { token: other.adminToken });
    expect(res.body.emailDomains).toEqual(['acme.test', 'b.test']);
  });

  it('matches whole domains only', async () => {
    const res = await s.request('GET', '/v1/email-domains/cme.test/orgs', { token: other.adminToken });
    expect(res.body).toEqual({ organizations: [] });
    expectError(await s.request('GET', '/v1/email-domains/not%20a%20domain/orgs'), 400, /emailDomain/);
  });
});

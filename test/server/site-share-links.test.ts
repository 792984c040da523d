import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { makeSite, sitesPath } from '../helpers/sites.js';

const SPEC = '/orgs/{organizationId}/sites/{siteId}/share-links';

describe.each(testDialects())('site share links (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('create (201, Location), list with search and paging, rename, deactivate, delete (205)', async () => {
    const site = await makeSite(s, { title: 'Shared', visibility: 'share-link' });
    const base = `${sitesPath(s)}/${site.id}/share-links`;
    const created = await s.request('POST', base, { body: { name: 'Partners' } });
    expectSpec(created, 'POST', SPEC, 201);
    const link = created.body;
    expect(created.headers.get('location')).toBe(`${s.url}${base}/${link.id}`);
    expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    expect(link.urls.published).toMatch(new RegExp(`^${s.url}/sites/${site.id}/~share/[A-Za-z0-9_-]{24}$`));
    const key = link.urls.published.split('/').pop();
    const other = (await s.request('POST', base, { body: { name: 'Press' } })).body;
    expectSpec(await s.request('POST', base, { body: { name: '' } }), 'POST', SPEC, 201);

    const all = await s.request('GET', base);
    expectSpec(all, 'GET', SPEC, 200);
    expect(all.body.items).toHaveLength(3);
    expect((await s.request('GET', `${base}?search=part`)).body.items.map((l: any) => l.id)).toEqual([link.id]);
    expect((await s.request('GET', `${base}?search=${key}`)).body.items.map((l: any) => l.id)).toEqual([link.id]);
    const first = await s.request('GET', `${base}?limit=2`);
    const second = await s.request('GET', `${base}?limit=2&page=${first.body.next.page}`);
    expect([...first.body.items, ...second.body.items].map((l: any) => l.id)).toEqual(all.body.items.map((l: any) => l.id));

    const renamed = await s.request('PATCH', `${base}/${other.id}`, { body: { name: 'n'.repeat(50), active: false } });
    expectSpec(renamed, 'PATCH', `${SPEC}/{shareLinkId}`, 200);
    expect(renamed.body).toMatchObject({ name: 'n'.repeat(50), active: false, urls: other.urls });
    expectError(await s.request('PATCH', `${base}/${other.id}`, { body: {} }), 400);
    expectError(await s.request('PATCH', `${base}/${other.id}`, { body: { name: 'n'.repeat(51) } }), 400, /body\.name/);
    expectError(await s.request('POST', base, { body: { name: 'n'.repeat(51) } }), 400, /body\.name/);
    expectError(await s.request('POST', base, { body: {} }), 400, /name/);
    expectError(await s.request('PATCH', `${base}/unknown`, { body: { active: true } }), 404);

    const del = await s.request('DELETE', `${base}/${other.id}`);
    expectSpec(del, 'DELETE', `${SPEC}/{shareLinkId}`, 205);
    expectError(await s.request('DELETE', `${base}/${other.id}`), 404);
    expect((await s.request('GET', base)).body.items).toHaveLength(2);
  });

  it('only admins manage share links; the links of another site are 404', async () => {
    const site = await makeSite(s, { title: 'Admin only' });
    const base = `${sitesPath(s)}/${site.id}/share-links`;
    const link = (await s.request('POST', base, { body: { name: 'x' } })).body;
    const creator = await s.user({ org: s.orgId, role: 'create' });
    expectError(await s.request('GET', base, { token: creator.token }), 403);
    expectError(await s.request('POST', base, { token: creator.token, body: { name: 'y' } }), 403);
    expectError(await s.request('DELETE', `${base}/${link.id}`, { token: creator.token }), 403);
    const another = await makeSite(s, { title: 'Another' });
    expectError(await s.request('PATCH', `${sitesPath(s)}/${another.id}/share-links/${link.id}`, { body: { active: false } }), 404);
  });
});

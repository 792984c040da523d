import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { addSiteSpace, makeSection, makeSite, makeSpaceId, sitesPath, structureIds } from '../helpers/sites.js';

const SITE_SPACES = '/orgs/{organizationId}/sites/{siteId}/site-spaces';
const SITE_SPACE = `${SITE_SPACES}/{siteSpaceId}`;

describe.each(testDialects())('site spaces (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('add at the root (201, Location), list with the default filter and paging, patch, delete (205)', async () => {
    const a = await makeSpaceId(s, 'Getting started');
    const b = await makeSpaceId(s, 'Getting started');
    const site = await makeSite(s, { title: 'Root spaces' });
    const base = `${sitesPath(s)}/${site.id}/site-spaces`;
    const res = await s.request('POST', base, { body: { spaceId: a } });
    expectSpec(res, 'POST', SITE_SPACES, 201);
    const first = res.body;
    expect(res.headers.get('location')).toBe(`${s.url}/v1/orgs/${s.orgId}/sites/${site.id}/site-spaces/${first.id}`);
    expect(first).toMatchObject({
      object: 'site-space',
      path: 'getting-started',
      title: 'Getting started',
      default: true,
      draft: false,
      hidden: false,
    });
    expect(first.space).toMatchObject({ object: 'space', id: a });
    expect(first.section).toBeUndefined();
    expect(first.urls).toEqual({ app: `${s.url}/app/sites/${site.id}/site-spaces/${first.id}`, published: `${s.url}/sites/${site.id}` });
    const second = await addSiteSpace(s, site.id, { spaceId: b });
    expect(second).toMatchObject({
      path: 'getting-started-2',
      default: false,
      urls: { published: `${s.url}/sites/${site.id}/getting-started-2` },
    });
    const third = await addSiteSpace(s, site.id, { spaceId: a });
    expect((await s.request('GET', `${sitesPath(s)}/${site.id}`)).body.siteSpaces).toBe(3);

    const all = await s.request('GET', base);
    expectSpec(all, 'GET', SITE_SPACES, 200);
    expect(all.body.items.map((x: any) => x.id)).toEqual([first.id, second.id, third.id]);
    expect((await s.request('GET', `${base}?default=true`)).body.items.map((x: any) => x.id)).toEqual([first.id]);
    expect((await s.request('GET', `${base}?default=false`)).body.items.map((x: any) => x.id)).toEqual([second.id, third.id]);
    const p1 = await s.request('GET', `${base}?limit=1&default=false`);
    expect(p1.body.items.map((x: any) => x.id)).toEqual([second.id]);
    const p2 = await s.request('GET', `${base}?limit=1&default=false&page=${p1.body.next.page}`);
    expect(p2.body.items.map((x: any) => x.id)).toEqual([third.id]);
    expect(p2.body.next).toBeUndefined();
    expectError(await s.request('GET', `${base}?default=maybe`), 400, /default/);

    const patched = await s.request('PATCH', `${base}/${second.id}`, {
      body: { path: 'v2', condition: 'visitor.claims.unsigned.beta', spaceId: a },
    });
    expectSpec(patched, 'PATCH', SITE_SPACE, 200);
    expect(patched.body).toMatchObject({ path: 'v2', condition: 'visitor.claims.unsigned.beta', space: { id: a } });
    expect((await s.request('PATCH', `${base}/${second.id}`, { body: { path: 'v3' } })).body.condition).toBe(
      'visitor.claims.unsigned.beta',
    );
    const cleared = await s.request('PATCH', `${base}/${second.id}`, { body: { condition: null } });
    expect(cleared.body.condition).toBeUndefined();
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ path: '' }, /body\.path/],
      [{ path: 'p'.repeat(101) }, /body\.path/],
      [{ path: '..' }, /body\.path/],
      [{ condition: '' }, /body\.condition/],
      [{ condition: 'c'.repeat(1025) }, /body\.condition/],
      [{ condition: 'visitor.claims.a ||| b' }, /body\.condition.*position 19/],
      [{ spaceId: 'nope' }, /body\.spaceId/],
      [{ section: 'x' }, /section/],
    ];
    for (const [body, message] of bad) expectError(await s.request('PATCH', `${base}/${second.id}`, { body }), 400, message);
    expect((await s.request('PATCH', `${base}/${second.id}`, { body: { path: 'p'.repeat(100) } })).body.path).toBe('p'.repeat(100));
    expectError(await s.request('PATCH', `${base}/${third.id}`, { body: { path: first.path } }), 409, /body\.path/);
    const minimal = await s.request('PATCH', `${base}/${third.id}`, { body: { path: 'quiet' }, headers: { prefer: 'return=minimal' } });
    expectSpec(minimal, 'PATCH', SITE_SPACE, 204);

    const del = await s.request('DELETE', `${base}/${first.id}`);
    expectSpec(del, 'DELETE', SITE_SPACE, 205);
    expectError(await s.request('DELETE', `${base}/${first.id}`), 404);
    // The default went with it: the next site space in order takes over.
    expect((await s.request('GET', `${base}?default=true`)).body.items.map((x: any) => x.id)).toEqual([second.id]);
  });

  it('add to a section or the default section; a section of another site is a 400; a space in several sites', async () => {
    const space = await makeSpaceId(s, 'Shared space');
    const site = await makeSite(s, { title: 'Sectioned spaces' });
    const other = await makeSite(s, { title: 'Second site', spaces: [space] });
    const base = `${sitesPath(s)}/${site.id}/site-spaces`;
    const main = await makeSection(s, site.id, { spaceId: space, title: 'Main' });
    const api = await makeSection(s, site.id, { spaceId: space, title: 'API' });
    const intoDefault = await addSiteSpace(s, site.id, { spaceId: space });
    expect(intoDefault.section).toBe(main.id);
    const intoApi = await addSiteSpace(s, site.id, { spaceId: space, sectionId: api.id });
    expect(intoApi).toMatchObject({ section: api.id, default: false, path: 'shared-space-2' });
    expect(intoApi.urls.published).toBe(`${s.url}/sites/${site.id}/api/shared-space-2`);
    const otherSection = await makeSection(s, other.id, { spaceId: space });
    expectError(await s.request('POST', base, { body: { spaceId: space, sectionId: otherSection.id } }), 400, /body\.sectionId/);
    const foreignOrg = await s.organization();
    const foreign = await makeSpaceId(s, 'Foreign', { org: foreignOrg.id, token: foreignOrg.adminToken });
    expectError(await s.request('POST', base, { body: { spaceId: foreign } }), 400, /body\.spaceId/);
    expectError(await s.request('POST', base, { body: {} }), 400, /spaceId/);
    const bySpace = await s.request('GET', `${sitesPath(s)}?space=${space}`);
    expect(bySpace.body.items.map((x: any) => x.id)).toEqual([site.id, other.id]);
    const minimal = await s.request('POST', base, { body: { spaceId: space }, headers: { prefer: 'return=minimal' } });
    expectSpec(minimal, 'POST', SITE_SPACES, 204);
    expect(minimal.headers.get('location')).toMatch(new RegExp(`/sites/${site.id}/site-spaces/`));
    expectError(await s.request('PATCH', `${sitesPath(s)}/${other.id}/site-spaces/${intoApi.id}`, { body: { path: 'x' } }), 404);
  });

  it('deprecated move within a section; roles', async () => {
    const space = await makeSpaceId(s, 'Order');
    const site = await makeSite(s, { title: 'Space moves', spaces: [space, await makeSpaceId(s, 'Order 2')] });
    const base = `${sitesPath(s)}/${site.id}/site-spaces`;
    const third = await addSiteSpace(s, site.id, { spaceId: space });
    const [x, y] = (await s.request('GET', base)).body.items;
    const moved = await s.request('POST', `${base}/${third.id}/move`, {
      body: { position: { before: { type: 'site-space', siteSpace: x.id } } },
    });
    expectSpec(moved, 'POST', `${SITE_SPACE}/move`, 200);
    expect(await structureIds(s, site.id)).toEqual([third.id, x.id, y.id]);
    await s.request('POST', `${base}/${third.id}/move`, { body: {} });
    expect(await structureIds(s, site.id)).toEqual([x.id, y.id, third.id]);
    expectError(
      await s.request('POST', `${base}/${x.id}/move`, { body: { position: { after: { type: 'site-space', siteSpace: 'nope' } } } }),
      400,
      /body\.position\.after/,
    );
    expectError(await s.request('POST', `${base}/nope/move`, { body: {} }), 404);

    const creator = await s.user({ org: s.orgId, role: 'create' });
    const reviewer = await s.user({ org: s.orgId, role: 'review' });
    expectSpec(await s.request('POST', base, { token: creator.token, body: { spaceId: space } }), 'POST', SITE_SPACES, 201);
    expectError(await s.request('POST', base, { token: reviewer.token, body: { spaceId: space } }), 403);
    expectError(await s.request('PATCH', `${base}/${x.id}`, { token: reviewer.token, body: { path: 'no' } }), 403);
    expectError(await s.request('DELETE', `${base}/${x.id}`, { token: reviewer.token }), 403);
    expectSpec(await s.request('GET', base, { token: reviewer.token }), 'GET', SITE_SPACES, 200);
  });
});

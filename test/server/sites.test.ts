import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { makeSite, makeSpaceId, sitesPath } from '../helpers/sites.js';

describe.each(testDialects())('sites: create, read, list, update, delete (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('POST answers 201 with Location, type basic, unpublished, and GET returns the same site', async () => {
    const res = await s.request('POST', sitesPath(s), { body: { title: 'Docs' } });
    expectSpec(res, 'POST', '/orgs/{organizationId}/sites', 201);
    const site = res.body;
    expect(site).toMatchObject({
      object: 'site',
      title: 'Docs',
      type: 'basic',
      appliedType: 'basic',
      visibility: 'public',
      published: false,
      siteSpaces: 0,
      agentsContext: 'included',
      adaptiveContent: { enabled: false },
      defaultLevel: 'inherit',
      features: [],
    });
    expect(res.headers.get('location')).toBe(`${s.url}/v1/orgs/${s.orgId}/sites/${site.id}`);
    expect(site.urls).toEqual({
      location: `${s.url}/v1/orgs/${s.orgId}/sites/${site.id}`,
      app: `${s.url}/app/sites/${site.id}`,
      preview: `${s.url}/app/sites/${site.id}/preview`,
      published: `${s.url}/sites/${site.id}`,
    });
    expect(site.permissions).toEqual({
      view: true,
      access: true,
      edit: true,
      create: true,
      admin: true,
      installIntegration: true,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: true,
    });
    const got = await s.request('GET', `${sitesPath(s)}/${site.id}`);
    expectSpec(got, 'GET', '/orgs/{organizationId}/sites/{siteId}', 200);
    expect(got.body).toEqual(site);
  });

  it('creates with no body, with every type and visibility, and refuses bad ones naming the field', async () => {
    const bare = await s.request('POST', sitesPath(s));
    expectSpec(bare, 'POST', '/orgs/{organizationId}/sites', 201);
    expect(bare.body.title).toBe('Untitled site');
    for (const type of ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium']) {
      expect((await makeSite(s, { type })).type).toBe(type);
    }
    for (const visibility of ['public', 'unlisted', 'share-link', 'visitor-auth']) {
      expect((await makeSite(s, { visibility })).visibility).toBe(visibility);
    }
    expectError(await s.request('POST', sitesPath(s), { body: { type: 'gold' } }), 400, /body\.type/);
    expectError(await s.request('POST', sitesPath(s), { body: { visibility: 'private' } }), 400, /body\.visibility/);
    expectError(await s.request('POST', sitesPath(s), { body: { extra: 1 } }), 400, /extra/);
    expectError(await s.request('POST', sitesPath(s), { body: { spaces: 'full' } }), 400, /body\.spaces/);
  });

  it('titles: 2 and 128 characters pass, 1 and 129 are 400 on create and on PATCH', async () => {
    expect((await makeSite(s, { title: 'ab' })).title).toBe('ab');
    const long = await makeSite(s, { title: 't'.repeat(128) });
    expectError(await s.request('POST', sitesPath(s), { body: { title: 'a' } }), 400, /body\.title/);
    expectError(await s.request('POST', sitesPath(s), { body: { title: 't'.repeat(129) } }), 400, /body\.title/);
    expectError(await s.request('PATCH', `${sitesPath(s)}/${long.id}`, { body: { title: 'a' } }), 400, /body\.title/);
    expectError(await s.request('PATCH', `${sitesPath(s)}/${long.id}`, { body: { title: 'u'.repeat(129) } }), 400, /body\.title/);
    const ok = await s.request('PATCH', `${sitesPath(s)}/${long.id}`, { body: { title: 'u'.repeat(128) } });
    expectSpec(ok, 'PATCH', '/orgs/{organizationId}/sites/{siteId}', 200);
    expect(ok.body.title).toBe('u'.repeat(128));
  });

  it('spaces: ids become root site spaces in order (duplicates once); empty and sample create a new space', async () => {
    const a = await makeSpaceId(s, 'Guide');
    const b = await makeSpaceId(s, 'API');
    const site = await makeSite(s, { title: 'With spaces', spaces: [a, b, a] });
    expect(site.siteSpaces).toBe(2);
    const list = await s.request('GET', `${sitesPath(s)}/${site.id}/site-spaces`);
    expect(list.body.items.map((i: any) => i.space.id)).toEqual([a, b]);

    for (const kind of ['empty', 'sample']) {
      const created = await makeSite(s, { title: `New ${kind}`, spaces: kind });
      expect(created.siteSpaces).toBe(1);
      const spaces = await s.request('GET', `/v1/orgs/${s.orgId}/spaces?limit=1000`);
      expect(spaces.body.items.some((sp: any) => sp.title === `New ${kind}`)).toBe(true);
    }
  });

  it('a space of another organization, an unknown or a deleted space is a 400 naming body.spaces.N', async () => {
    const other = await s.organization();
    const foreign = await makeSpaceId(s, 'Foreign', { org: other.id, token: other.adminToken });
    const mine = await makeSpaceId(s, 'Mine');
    expectError(await s.request('POST', sitesPath(s), { body: { spaces: [mine, foreign] } }), 400, /body\.spaces\.1/);
    expectError(await s.request('POST', sitesPath(s), { body: { spaces: ['nope'] } }), 400, /body\.spaces\.0/);
    const gone = await makeSpaceId(s, 'Gone');
    expect((await s.request('DELETE', `/v1/spaces/${gone}`)).status).toBe(205);
    expectError(await s.request('POST', sitesPath(s), { body: { spaces: [gone] } }), 400, /body\.spaces\.0/);
  });

  it('PATCH sets every field; proxy goes in as a string and comes out as {origin, target}; null removes it', async () => {
    const site = await makeSite(s, { title: 'Patchable' });
    const path = `${sitesPath(s)}/${site.id}`;
    const res = await s.request('PATCH', path, {
      body: {
        visibility: 'unlisted',
        basename: `docs-${site.id}`,
        adaptiveContent: { enabled: true },
        agentsContext: 'excluded',
        proxy: 'example.com/docs',
        hostname: 'docs.example.com',
      },
    });
    expectSpec(res, 'PATCH', '/orgs/{organizationId}/sites/{siteId}', 200);
    expect(res.body).toMatchObject({
      visibility: 'unlisted',
      basename: `docs-${site.id}`,
      adaptiveContent: { enabled: true },
      agentsContext: 'excluded',
      hostname: 'docs.example.com',
      proxy: { origin: 'example.com/docs', target: `${s.url}/sites/docs-${site.id}` },
    });
    expect(res.body.urls.published).toBe(`${s.url}/sites/docs-${site.id}`);
    expect((await s.request('GET', path)).body).toEqual(res.body);
    const cleared = await s.request('PATCH', path, { body: { proxy: null, hostname: null } });
    expectSpec(cleared, 'PATCH', '/orgs/{organizationId}/sites/{siteId}', 200);
    expect(cleared.body.proxy).toBeUndefined();
    expect(cleared.body.hostname).toBeUndefined();
    expect(cleared.body.basename).toBe(`docs-${site.id}`);
    const same = await s.request('PATCH', path, { body: {} });
    expect(same.body).toEqual(cleared.body);
  });

  it('bounds: basename 1 to 100, proxy pattern and 512 characters, hostname pattern; a taken basename is 409', async () => {
    const site = await makeSite(s, { title: 'Bounds' });
    const path = `${sitesPath(s)}/${site.id}`;
    expect((await s.request('PATCH', path, { body: { basename: 'b'.repeat(100) } })).body.basename).toBe('b'.repeat(100));
    expectError(await s.request('PATCH', path, { body: { basename: '' } }), 400, /body\.basename/);
    expectError(await s.request('PATCH', path, { body: { basename: 'b'.repeat(101) } }), 400, /body\.basename/);
    const other = await makeSite(s, { title: 'Other' });
    expectError(await s.request('PATCH', `${sitesPath(s)}/${other.id}`, { body: { basename: 'b'.repeat(100) } }), 409, /basename/);

    const fits = `example.com/${'p'.repeat(500)}`;
    expect(fits.length).toBe(512);
    expect((await s.request('PATCH', path, { body: { proxy: fits } })).status).toBe(200);
    const tooLong = `example.com/${'p'.repeat(501)}`;
    expect(tooLong.length).toBe(513);
    expectError(await s.request('PATCH', path, { body: { proxy: tooLong } }), 400, /body\.proxy/);
    for (const bad of ['example.com', 'https://example.com/docs', 'example/docs', 'example.com/docs/']) {
      expectError(await s.request('PATCH', path, { body: { proxy: bad } }), 400, /body\.proxy/);
    }
    for (const bad of [
      'example.com',
      'Docs.Example.com',
      '-a.example.com',
      'docs..example.com',
      'docs.example.com.',
      'docs_x.example.com',
    ]) {
      expectError(await s.request('PATCH', path, { body: { hostname: bad } }), 400, /body\.hostname/);
    }
    const host = `h${'x'.repeat(61)}y.example.com`;
    expect((await s.request('PATCH', path, { body: { hostname: host } })).body.hostname).toBe(host);
    expectError(await s.request('PATCH', `${sitesPath(s)}/${other.id}`, { body: { hostname: host } }), 409, /hostname/);
    expectError(await s.request('PATCH', path, { body: { agentsContext: 'maybe' } }), 400, /body\.agentsContext/);
    expectError(await s.request('PATCH', path, { body: { adaptiveContent: { enabled: 'yes' } } }), 400, /body\.adaptiveContent/);
    expectError(await s.request('PATCH', path, { body: { adaptiveContent: {} } }), 400, /body\.adaptiveContent/);
  });

  it('DELETE answers 205, the site is gone and its spaces stay', async () => {
    const space = await makeSpaceId(s, 'Kept');
    const site = await makeSite(s, { title: 'Doomed', spaces: [space] });
    const del = await s.request('DELETE', `${sitesPath(s)}/${site.id}`);
    expectSpec(del, 'DELETE', '/orgs/{organizationId}/sites/{siteId}', 205);
    expectError(await s.request('GET', `${sitesPath(s)}/${site.id}`), 404);
    expectError(await s.request('DELETE', `${sitesPath(s)}/${site.id}`), 404);
    expect((await s.request('GET', `/v1/spaces/${space}`)).status).toBe(200);
  });

  it('publish and unpublish set published; the published filter follows', async () => {
    const site = await makeSite(s, { title: 'Live one' });
    const pub = await s.request('POST', `${sitesPath(s)}/${site.id}/publish`);
    expectSpec(pub, 'POST', '/orgs/{organizationId}/sites/{siteId}/publish', 200);
    expect(pub.body.published).toBe(true);
    const listed = await s.request('GET', `${sitesPath(s)}?published=true&limit=1000`);
    expectSpec(listed, 'GET', '/orgs/{organizationId}/sites', 200);
    expect(listed.body.items.map((i: any) => i.id)).toEqual([site.id]);
    const unpub = await s.request('POST', `${sitesPath(s)}/${site.id}/unpublish`);
    expectSpec(unpub, 'POST', '/orgs/{organizationId}/sites/{siteId}/unpublish', 200);
    expect(unpub.body.published).toBe(false);
    expect((await s.request('GET', `${sitesPath(s)}?published=true`)).body.items).toEqual([]);
    const unpublished = await s.request('GET', `${sitesPath(s)}?published=false&limit=1000`);
    expect(unpublished.body.items.some((i: any) => i.id === site.id)).toBe(true);
  });
});

describe.each(testDialects())('sites: list filters, paging, permissions (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('filters by space and by title (case-insensitive substring, wildcards literal), and pages', async () => {
    const space = await makeSpaceId(s, 'Shared');
    const a = await makeSite(s, { title: 'Alpha Docs', spaces: [space] });
    const b = await makeSite(s, { title: 'Beta docs' });
    const c = await makeSite(s, { title: '100%_sure', spaces: [space] });
    const bySpace = await s.request('GET', `${sitesPath(s)}?space=${space}`);
    expectSpec(bySpace, 'GET', '/orgs/{organizationId}/sites', 200);
    expect(bySpace.body.items.map((i: any) => i.id)).toEqual([a.id, c.id]);
    const byTitle = await s.request('GET', `${sitesPath(s)}?title=DOCS`);
    expect(byTitle.body.items.map((i: any) => i.id)).toEqual([a.id, b.id]);
    expect((await s.request('GET', `${sitesPath(s)}?title=${encodeURIComponent('%_')}`)).body.items.map((i: any) => i.id)).toEqual([c.id]);
    expect((await s.request('GET', `${sitesPath(s)}?title=_`)).body.items.map((i: any) => i.id)).toEqual([c.id]);
    const both = await s.request('GET', `${sitesPath(s)}?title=docs&space=${space}`);
    expect(both.body.items.map((i: any) => i.id)).toEqual([a.id]);

    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await s.request('GET', `${sitesPath(s)}?limit=2${page ? `&page=${page}` : ''}`);
      expectSpec(res, 'GET', '/orgs/{organizationId}/sites', 200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      expect(res.body.count).toBe(res.body.items.length);
      seen.push(...res.body.items.map((i: any) => i.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual([a.id, b.id, c.id]);
    expectError(await s.request('GET', `${sitesPath(s)}?limit=0`), 400, /limit/);
    expectError(await s.request('GET', `${sitesPath(s)}?limit=1001`), 400, /limit/);
    expectError(await s.request('GET', `${sitesPath(s)}?page=garbage`), 400, /page/);
    expectError(await s.request('GET', `${sitesPath(s)}?published=maybe`), 400, /published/);
    expectError(await s.request('GET', `${sitesPath(s)}?other=1`), 400, /other/);
  });

  it("members read sites; only admins change them; guests and outsiders get 404; another org's site is 404", async () => {
    const site = await makeSite(s, { title: 'Guarded' });
    const path = `${sitesPath(s)}/${site.id}`;
    for (const role of ['read', 'edit', 'review', 'create'] as const) {
      const u = await s.user({ org: s.orgId, role });
      const got = await s.request('GET', path, { token: u.token });
      expectSpec(got, 'GET', '/orgs/{organizationId}/sites/{siteId}', 200);
      expect(got.body.permissions.admin).toBe(false);
      expect(got.body.permissions.view).toBe(true);
      expect(got.body.permissions.create).toBe(role === 'create');
      expect(got.body.permissions.edit).toBe(role !== 'read');
      expectError(await s.request('PATCH', path, { token: u.token, body: { title: 'Nope' } }), 403);
      expectError(await s.request('DELETE', path, { token: u.token }), 403);
      expectError(await s.request('POST', `${path}/publish`, { token: u.token }), 403);
      expectError(await s.request('POST', sitesPath(s), { token: u.token, body: {} }), 403);
    }
    const guest = await s.user({ org: s.orgId, role: null });
    const outsider = await s.user();
    for (const u of [guest, outsider]) {
      expectError(await s.request('GET', path, { token: u.token }), 404);
      expectError(await s.request('GET', sitesPath(s), { token: u.token }), 404);
    }
    const other = await s.organization();
    const foreign = await makeSite(s, { title: 'Theirs' }, { org: other.id, token: other.adminToken });
    expectError(await s.request('GET', `${sitesPath(s)}/${foreign.id}`), 404);
    expectError(await s.request('PATCH', `${sitesPath(s)}/${foreign.id}`, { body: { title: 'Mine now' } }), 404);
    expectError(await s.request('GET', `${sitesPath(s)}/unknown-site`), 404);
    expectError(await s.request('GET', sitesPath(s), { token: null }), 401);
    const admin = await s.user({ org: s.orgId, role: 'admin' });
    const patched = await s.request('PATCH', path, { token: admin.token, body: { title: 'Changed' } });
    expectSpec(patched, 'PATCH', '/orgs/{organizationId}/sites/{siteId}', 200);
  });
});

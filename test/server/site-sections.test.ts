import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { makeSection, makeSite, makeSpaceId, sitesPath, structureIds } from '../helpers/sites.js';

const SECTIONS = '/orgs/{organizationId}/sites/{siteId}/sections';
const SECTION = `${SECTIONS}/{siteSectionId}`;

describe.each(testDialects())('site sections (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('the first section takes the root site spaces with their default and becomes the default section', async () => {
    const a = await makeSpaceId(s, 'Alpha');
    const b = await makeSpaceId(s, 'Beta');
    const c = await makeSpaceId(s, 'Gamma');
    const site = await makeSite(s, { title: 'Sectioned', spaces: [a, b] });
    const base = `${sitesPath(s)}/${site.id}`;
    const rootSpaces = (await s.request('GET', `${base}/site-spaces`)).body.items;
    await s.request('PATCH', base, { body: { defaultSiteSpace: rootSpaces[1].id } });

    const res = await s.request('POST', `${base}/sections`, { body: { spaceId: c, title: 'Guides', icon: 'book' } });
    expectSpec(res, 'POST', SECTIONS, 201);
    const first = res.body;
    expect(res.headers.get('location')).toBe(`${s.url}/v1/orgs/${s.orgId}/sites/${site.id}/sections/${first.id}`);
    expect(first).toMatchObject({ object: 'site-section', title: 'Guides', path: 'guides', default: true, icon: 'book', draft: false });
    expect(first.siteSpaces.map((x: any) => x.space.id)).toEqual([a, b, c]);
    expect(first.siteSpaces.map((x: any) => x.default)).toEqual([false, true, false]);
    expect(first.siteSpaces.every((x: any) => x.section === first.id)).toBe(true);
    expect(first.urls).toEqual({ app: `${s.url}/app/sites/${site.id}/sections/${first.id}`, published: `${s.url}/sites/${site.id}` });
    expect(first.siteSpaces[0].urls.published).toBe(`${s.url}/sites/${site.id}/alpha`);
    expect(first.siteSpaces[1].urls.published).toBe(`${s.url}/sites/${site.id}`);

    // Without a title the section takes the space's; a taken path gets a suffix.
    const second = await makeSection(s, site.id, { spaceId: a, title: 'guides!' });
    expect(second).toMatchObject({ title: 'guides!', path: 'guides-2', default: false });
    expect(second.siteSpaces.map((x: any) => [x.space.id, x.default])).toEqual([[a, true]]);
    expect(second.urls.published).toBe(`${s.url}/sites/${site.id}/guides-2`);
    expect(second.siteSpaces[0].urls.published).toBe(`${s.url}/sites/${site.id}/guides-2`);
    const third = await makeSection(s, site.id, { spaceId: b, title: null, icon: null });
    expect(third).toMatchObject({ title: 'Beta', path: 'beta' });
    expect(third.icon).toBeUndefined();
    expect((await s.request('GET', base)).body.siteSpaces).toBe(5);

    const list = await s.request('GET', `${base}/sections`);
    expectSpec(list, 'GET', SECTIONS, 200);
    expect(list.body.items.map((x: any) => x.id)).toEqual([first.id, second.id, third.id]);
    const page1 = await s.request('GET', `${base}/sections?limit=2`);
    const page2 = await s.request('GET', `${base}/sections?limit=2&page=${page1.body.next.page}`);
    expect([...page1.body.items, ...page2.body.items].map((x: any) => x.id)).toEqual([first.id, second.id, third.id]);
    expect(page2.body.next).toBeUndefined();
  });

  it('PATCH: every field and bound; condition omitted leaves it, null removes it, a bad one is 400 with its position', async () => {
    const space = await makeSpaceId(s, 'Patch me');
    const site = await makeSite(s, { title: 'Patch site' });
    const section = await makeSection(s, site.id, { spaceId: space });
    const other = await makeSection(s, site.id, { spaceId: space, title: 'Other' });
    const path = `${sitesPath(s)}/${site.id}/sections/${section.id}`;
    const ok = await s.request('PATCH', path, {
      body: {
        title: 't'.repeat(128),
        path: 'p'.repeat(100),
        condition: 'visitor.claims.unsigned.beta && visitor.claims.plan == "pro"',
        icon: 'i'.repeat(50),
        description: 'd'.repeat(256),
      },
    });
    expectSpec(ok, 'PATCH', SECTION, 200);
    expect(ok.body).toMatchObject({
      title: 't'.repeat(128),
      path: 'p'.repeat(100),
      condition: 'visitor.claims.unsigned.beta && visitor.claims.plan == "pro"',
      icon: 'i'.repeat(50),
      description: 'd'.repeat(256),
    });
    const kept = await s.request('PATCH', path, { body: { title: 'Renamed' } });
    expect(kept.body.condition).toBe(ok.body.condition);
    const removed = await s.request('PATCH', path, { body: { condition: null, icon: null, description: null } });
    expectSpec(removed, 'PATCH', SECTION, 200);
    expect(removed.body.condition).toBeUndefined();
    expect(removed.body.icon).toBeUndefined();
    expect(removed.body.description).toBeUndefined();

    const bad: [Record<string, unknown>, RegExp][] = [
      [{ title: 'x' }, /body\.title/],
      [{ title: 'x'.repeat(129) }, /body\.title/],
      [{ path: '' }, /body\.path/],
      [{ path: 'x'.repeat(101) }, /body\.path/],
      [{ path: 'a/b' }, /body\.path/],
      [{ condition: '' }, /body\.condition/],
      [{ condition: 'c'.repeat(1025) }, /body\.condition/],
      [{ condition: 'visitor.claims.beta &&' }, /body\.condition.*position 22/],
      [{ condition: 'user.isAdmin' }, /body\.condition.*position 0/],
      [{ icon: 'i'.repeat(51) }, /body\.icon/],
      [{ description: 'd'.repeat(257) }, /body\.description/],
      [{ defaultSiteSpace: other.siteSpaces[0].id }, /body\.defaultSiteSpace/],
      [{ unknown: 1 }, /unknown/],
    ];
    for (const [body, message] of bad) expectError(await s.request('PATCH', path, { body }), 400, message);
    const long = `visitor.claims.a == "${'x'.repeat(1024 - 22)}"`;
    expect(long.length).toBe(1024);
    expect((await s.request('PATCH', path, { body: { condition: long } })).body.condition).toBe(long);
    expectError(await s.request('PATCH', path, { body: { path: other.path } }), 409, /body\.path/);
    expectError(await s.request('PATCH', `${sitesPath(s)}/${site.id}/sections/nope`, { body: { title: 'Nope' } }), 404);
    const otherSite = await makeSite(s, { title: 'Elsewhere' });
    expectError(await s.request('PATCH', `${sitesPath(s)}/${otherSite.id}/sections/${section.id}`, { body: { title: 'Moved?' } }), 404);

    const minimal = await s.request('PATCH', path, { body: { title: 'Quiet' }, headers: { prefer: 'return=minimal' } });
    expect(minimal.status).toBe(204);
    expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
    expect(minimal.body).toBeUndefined();
  });

  it('default section and default site space stay unique: setting one clears the other', async () => {
    const a = await makeSpaceId(s, 'One');
    const b = await makeSpaceId(s, 'Two');
    const site = await makeSite(s, { title: 'Defaults' });
    const base = `${sitesPath(s)}/${site.id}`;
    const first = await makeSection(s, site.id, { spaceId: a });
    const second = await makeSection(s, site.id, { spaceId: a, title: 'Second' });
    const extra = (await s.request('POST', `${base}/site-spaces`, { body: { spaceId: b, sectionId: second.id } })).body;
    const patched = await s.request('PATCH', `${base}/sections/${second.id}`, { body: { defaultSiteSpace: extra.id } });
    expect(patched.body.siteSpaces.map((x: any) => x.default)).toEqual([false, true]);

    const site2 = await s.request('PATCH', base, { body: { defaultSiteSection: second.id } });
    expectSpec(site2, 'PATCH', '/orgs/{organizationId}/sites/{siteId}', 200);
    const sections = (await s.request('GET', `${base}/sections`)).body.items;
    expect(sections.map((x: any) => [x.id, x.default])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
    // defaultSiteSpace on the site means the default section's default site space.
    const back = second.siteSpaces[0].id;
    expect((await s.request('PATCH', base, { body: { defaultSiteSpace: back } })).status).toBe(200);
    const after = (await s.request('GET', `${base}/sections`)).body.items[1];
    expect(after.siteSpaces.map((x: any) => [x.id, x.default])).toEqual([
      [back, true],
      [extra.id, false],
    ]);
    expect((await s.request('GET', `${base}/site-spaces?default=true`)).body.items.map((x: any) => x.id)).toEqual([back]);
    expectError(await s.request('PATCH', base, { body: { defaultSiteSpace: first.siteSpaces[0].id } }), 400, /body\.defaultSiteSpace/);
    expectError(await s.request('PATCH', base, { body: { defaultSiteSection: 'nope' } }), 400, /body\.defaultSiteSection/);
  });

  it('DELETE: 205; the default section is a 409 while others exist; the last one leaves a site without sections', async () => {
    const space = await makeSpaceId(s, 'Deleted');
    const site = await makeSite(s, { title: 'Deletes' });
    const base = `${sitesPath(s)}/${site.id}`;
    const first = await makeSection(s, site.id, { spaceId: space });
    const second = await makeSection(s, site.id, { spaceId: space, title: 'Second' });
    expectError(await s.request('DELETE', `${base}/sections/${first.id}`), 409, /default section/);
    const del = await s.request('DELETE', `${base}/sections/${second.id}`);
    expectSpec(del, 'DELETE', SECTION, 205);
    expectError(await s.request('DELETE', `${base}/sections/${second.id}`), 404);
    expect((await s.request('GET', base)).body.siteSpaces).toBe(1);
    expectSpec(await s.request('DELETE', `${base}/sections/${first.id}`), 'DELETE', SECTION, 205);
    expect(await structureIds(s, site.id)).toEqual([]);
    expect((await s.request('GET', base)).body.siteSpaces).toBe(0);
    expect((await s.request('GET', `/v1/spaces/${space}`)).status).toBe(200);
  });

  it('bad input: a space of another organization, a missing spaceId, too short a title; roles', async () => {
    const site = await makeSite(s, { title: 'Strict sections' });
    const base = `${sitesPath(s)}/${site.id}/sections`;
    const other = await s.organization();
    const foreign = await makeSpaceId(s, 'Foreign', { org: other.id, token: other.adminToken });
    expectError(await s.request('POST', base, { body: { spaceId: foreign } }), 400, /body\.spaceId/);
    expectError(await s.request('POST', base, { body: {} }), 400, /spaceId/);
    const space = await makeSpaceId(s, 'Mine');
    expectError(await s.request('POST', base, { body: { spaceId: space, title: 'x' } }), 400, /body\.title/);
    expectError(await s.request('POST', base, { body: { spaceId: space, icon: 'i'.repeat(51) } }), 400, /body\.icon/);

    const creator = await s.user({ org: s.orgId, role: 'create' });
    const editor = await s.user({ org: s.orgId, role: 'edit' });
    const made = await s.request('POST', base, { token: creator.token, body: { spaceId: space } });
    expectSpec(made, 'POST', SECTIONS, 201);
    expectError(await s.request('POST', base, { token: editor.token, body: { spaceId: space } }), 403);
    expectError(await s.request('PATCH', `${base}/${made.body.id}`, { token: editor.token, body: { title: 'No' } }), 403);
    expectError(await s.request('DELETE', `${base}/${made.body.id}`, { token: editor.token }), 403);
    expectSpec(await s.request('GET', base, { token: editor.token }), 'GET', SECTIONS, 200);
    const guest = await s.user({ org: s.orgId, role: null });
    expectError(await s.request('GET', base, { token: guest.token }), 404);
  });

  it('deprecated move: before/after a section (joining its group or the root), or to the end', async () => {
    const space = await makeSpaceId(s, 'Movable');
    const site = await makeSite(s, { title: 'Moves' });
    const base = `${sitesPath(s)}/${site.id}`;
    const [a, b, c] = [
      await makeSection(s, site.id, { spaceId: space, title: 'Aa' }),
      await makeSection(s, site.id, { spaceId: space, title: 'Bb' }),
      await makeSection(s, site.id, { spaceId: space, title: 'Cc' }),
    ];
    const ids = async () => ((await structureIds(s, site.id)) as any[]).map((x) => x.section ?? x.group);
    const moved = await s.request('POST', `${base}/sections/${c.id}/move`, {
      body: { position: { before: { type: 'site-section', siteSection: a.id } } },
    });
    expectSpec(moved, 'POST', `${SECTION}/move`, 200);
    expect(await ids()).toEqual([c.id, a.id, b.id]);
    await s.request('POST', `${base}/sections/${c.id}/move`, {
      body: { position: { after: { type: 'site-section', siteSection: a.id } } },
    });
    expect(await ids()).toEqual([a.id, c.id, b.id]);
    expectSpec(await s.request('POST', `${base}/sections/${a.id}/move`, { body: {} }), 'POST', `${SECTION}/move`, 200);
    expect(await ids()).toEqual([c.id, b.id, a.id]);
    expectError(
      await s.request('POST', `${base}/sections/${a.id}/move`, {
        body: { position: { before: { type: 'site-section', siteSection: 'nope' } } },
      }),
      400,
      /body\.position\.before/,
    );
    expectError(
      await s.request('POST', `${base}/sections/${a.id}/move`, {
        body: { position: { before: { type: 'site-section', siteSection: a.id } } },
      }),
      400,
      /itself/,
    );
    expectError(
      await s.request('POST', `${base}/sections/${a.id}/move`, {
        body: { position: { before: { type: 'site-space', siteSection: b.id } } },
      }),
      400,
      /type/,
    );
    expectError(await s.request('POST', `${base}/sections/nope/move`, { body: {} }), 404);
  });
});

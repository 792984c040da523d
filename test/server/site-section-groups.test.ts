import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { assertMatchesSpec } from '../helpers/spec.js';
import { makeSection, makeSite, makeSpaceId, sitesPath, structureIds } from '../helpers/sites.js';

const GROUPS = '/orgs/{organizationId}/sites/{siteId}/section-groups';
const GROUP = `${GROUPS}/{siteSectionGroupId}`;

describe.each(testDialects())('site section groups and sorting (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function siteWithSections(n: number) {
    const space = await makeSpaceId(s, 'Grouped');
    const site = await makeSite(s, { title: 'Groups' });
    const sections = [];
    for (let i = 0; i < n; i += 1) sections.push(await makeSection(s, site.id, { spaceId: space, title: `Section ${i}` }));
    return { site, sections, base: `${sitesPath(s)}/${site.id}` };
  }

  it('create with sections (201, Location), list, rename, add and remove a section, delete keeps the sections in place', async () => {
    const {
      site,
      sections: [a, b, c, d],
      base,
    } = await siteWithSections(4);
    const res = await s.request('POST', `${base}/section-groups`, { body: { title: 'G', icon: 'folder', sections: [c.id, b.id] } });
    expectSpec(res, 'POST', GROUPS, 201);
    const group = res.body;
    expect(res.headers.get('location')).toBe(`${s.url}/v1/orgs/${s.orgId}/sites/${site.id}/section-groups/${group.id}`);
    expect(group).toMatchObject({ object: 'site-section-group', title: 'G', icon: 'folder', draft: false });
    expect(group.sections.map((x: any) => x.id)).toEqual([c.id, b.id]);
    expect(group.children).toEqual(group.sections);
    expect(group.sections.every((x: any) => x.sectionGroup === group.id)).toBe(true);
    expect(await structureIds(s, site.id)).toEqual([
      { section: a.id, siteSpaces: [a.siteSpaces[0].id] },
      { section: d.id, siteSpaces: [d.siteSpaces[0].id] },
      { group: group.id, sections: [c.id, b.id] },
    ]);

    const list = await s.request('GET', `${base}/section-groups`);
    expectSpec(list, 'GET', GROUPS, 200);
    expect(list.body.items.map((x: any) => x.id)).toEqual([group.id]);

    const renamed = await s.request('PATCH', `${base}/section-groups/${group.id}`, { body: { title: 'x'.repeat(100), icon: null } });
    expectSpec(renamed, 'PATCH', GROUP, 200);
    expect(renamed.body.title).toBe('x'.repeat(100));
    expect(renamed.body.icon).toBeUndefined();
    expect((await s.request('PATCH', `${base}/section-groups/${group.id}`, { body: { title: 'y' } })).body.title).toBe('y');
    expectError(await s.request('PATCH', `${base}/section-groups/${group.id}`, { body: { title: '' } }), 400, /body\.title/);
    expectError(await s.request('PATCH', `${base}/section-groups/${group.id}`, { body: { title: 'x'.repeat(101) } }), 400, /body\.title/);
    expectError(await s.request('PATCH', `${base}/section-groups/${group.id}`, { body: { icon: 'i'.repeat(51) } }), 400, /body\.icon/);
    const minimal = await s.request('PATCH', `${base}/section-groups/${group.id}`, {
      body: { title: 'G' },
      headers: { prefer: 'return=minimal' },
    });
    expect(minimal.status).toBe(204);

    const added = await s.request('POST', `${base}/section-groups/${group.id}/sections`, { body: { sectionId: a.id } });
    expect(added.status).toBe(201);
    assertMatchesSpec('PATCH', GROUP, 200, added.body);
    expect(added.body.sections.map((x: any) => x.id)).toEqual([c.id, b.id, a.id]);
    const removed = await s.request('DELETE', `${base}/section-groups/${group.id}/sections/${b.id}`);
    expect(removed.status).toBe(205);
    expect(await structureIds(s, site.id)).toEqual([
      { section: d.id, siteSpaces: [d.siteSpaces[0].id] },
      { group: group.id, sections: [c.id, a.id] },
      { section: b.id, siteSpaces: [b.siteSpaces[0].id] },
    ]);
    expectError(await s.request('DELETE', `${base}/section-groups/${group.id}/sections/${b.id}`), 404);

    const del = await s.request('DELETE', `${base}/section-groups/${group.id}`);
    expectSpec(del, 'DELETE', GROUP, 205);
    expect(((await structureIds(s, site.id)) as any[]).map((x) => x.section)).toEqual([d.id, c.id, a.id, b.id]);
    expectError(await s.request('DELETE', `${base}/section-groups/${group.id}`), 404);
  });

  it('bad input: missing or long title, a section of another site, unknown group; roles', async () => {
    const { base } = await siteWithSections(1);
    const other = await siteWithSections(1);
    expectError(await s.request('POST', `${base}/section-groups`, { body: {} }), 400, /title/);
    expectError(await s.request('POST', `${base}/section-groups`, { body: { title: '' } }), 400, /body\.title/);
    expectError(await s.request('POST', `${base}/section-groups`, { body: { title: 'x'.repeat(101) } }), 400, /body\.title/);
    expectError(
      await s.request('POST', `${base}/section-groups`, { body: { title: 'G', sections: [other.sections[0].id] } }),
      400,
      /body\.sections\.0/,
    );
    const group = (await s.request('POST', `${base}/section-groups`, { body: { title: 'x' } })).body;
    expect(group.sections).toEqual([]);
    expectError(
      await s.request('POST', `${base}/section-groups/${group.id}/sections`, { body: { sectionId: other.sections[0].id } }),
      400,
      /body\.sectionId/,
    );
    expectError(await s.request('PATCH', `${other.base}/section-groups/${group.id}`, { body: { title: 'z' } }), 404);
    const editor = await s.user({ org: s.orgId, role: 'edit' });
    expectError(await s.request('POST', `${base}/section-groups`, { token: editor.token, body: { title: 'G' } }), 403);
    expectSpec(await s.request('GET', `${base}/section-groups`, { token: editor.token }), 'GET', GROUPS, 200);
  });

  it('deprecated group move and PATCH structure/sort order sections, groups and site spaces', async () => {
    const {
      site,
      sections: [a, b, c],
      base,
    } = await siteWithSections(3);
    const group = (await s.request('POST', `${base}/section-groups`, { body: { title: 'G', sections: [b.id] } })).body;
    const ids = async () => ((await structureIds(s, site.id)) as any[]).map((x) => x.section ?? x.group);
    expect(await ids()).toEqual([a.id, c.id, group.id]);

    const moved = await s.request('POST', `${base}/section-groups/${group.id}/move`, {
      body: { position: { before: { type: 'site-section', id: a.id } } },
    });
    expectSpec(moved, 'POST', `${GROUP}/move`, 200);
    expect(await ids()).toEqual([group.id, a.id, c.id]);
    expectError(
      await s.request('POST', `${base}/section-groups/${group.id}/move`, {
        body: { position: { after: { type: 'site-section', id: b.id } } },
      }),
      400,
      /root/,
    );

    const sort = '/orgs/{organizationId}/sites/{siteId}/structure/sort';
    const sorted = await s.request('PATCH', `${base}/structure/sort`, {
      body: { item: { type: 'site-section', id: c.id }, position: { before: { type: 'site-section-group', id: group.id } } },
    });
    expectSpec(sorted, 'PATCH', sort, 200);
    expect(sorted.body).toMatchObject({ object: 'site-section', id: c.id });
    expect(await ids()).toEqual([c.id, group.id, a.id]);
    // A section placed next to a section of a group joins the group.
    await s.request('PATCH', `${base}/structure/sort`, {
      body: { item: { type: 'site-section', id: a.id }, position: { before: { type: 'site-section', id: b.id } } },
    });
    expect(await structureIds(s, site.id)).toEqual([
      { section: c.id, siteSpaces: [c.siteSpaces[0].id] },
      { group: group.id, sections: [a.id, b.id] },
    ]);
    const end = await s.request('PATCH', `${base}/structure/sort`, {
      body: { item: { type: 'site-section', id: a.id } },
      headers: { prefer: 'return=minimal' },
    });
    expectSpec(end, 'PATCH', sort, 204);
    expect(await ids()).toEqual([c.id, group.id, a.id]);

    const extra = (await s.request('POST', `${base}/site-spaces`, { body: { spaceId: c.siteSpaces[0].space.id, sectionId: c.id } })).body;
    const spaceSorted = await s.request('PATCH', `${base}/structure/sort`, {
      body: { item: { type: 'site-space', id: extra.id }, position: { before: { type: 'site-space', id: c.siteSpaces[0].id } } },
    });
    expectSpec(spaceSorted, 'PATCH', sort, 200);
    expect(((await structureIds(s, site.id)) as any[])[0].siteSpaces).toEqual([extra.id, c.siteSpaces[0].id]);
    expectError(
      await s.request('PATCH', `${base}/structure/sort`, {
        body: { item: { type: 'site-space', id: extra.id }, position: { before: { type: 'site-space', id: a.siteSpaces[0].id } } },
      }),
      400,
      /sibling/,
    );
    expectError(await s.request('PATCH', `${base}/structure/sort`, { body: { item: { type: 'site-section', id: 'nope' } } }), 404);
    expectError(await s.request('PATCH', `${base}/structure/sort`, { body: { item: { type: 'site-external-link', id: 'x' } } }), 404);
    expectError(
      await s.request('PATCH', `${base}/structure/sort`, {
        body: { item: { type: 'site-section', id: a.id }, position: { before: { type: 'site-section', id: 'nope' } } },
      }),
      400,
      /body\.position\.before/,
    );
    expectError(
      await s.request('PATCH', `${base}/structure/sort`, {
        body: { item: { type: 'site-section-group', id: group.id }, position: { after: { type: 'site-space', id: extra.id } } },
      }),
      400,
      /body\.position\.after/,
    );
    expectError(
      await s.request('PATCH', `${base}/structure/sort`, { body: { item: { type: 'page', id: a.id } } }),
      400,
      /body\.item\.type/,
    );
    expectError(await s.request('PATCH', `${base}/structure/sort`, { body: {} }), 400, /item/);
  });
});

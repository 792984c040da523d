import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { addSiteSpace, makeSection, makeSite, makeSpaceId, sitesPath } from '../helpers/sites.js';
import { evaluateCondition, parseCondition } from '../../src/content/index.js';

const PUBLISHED = '/orgs/{organizationId}/sites/{siteId}/published';
const SCHEMA = '/orgs/{organizationId}/sites/{siteId}/adaptive-schema';

describe.each(testDialects())('published site and adaptive schema (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a site with two sections in a group, three site spaces and conditions reads back exactly', async () => {
    const [a, b, c] = [await makeSpaceId(s, 'Guides'), await makeSpaceId(s, 'API v1'), await makeSpaceId(s, 'API v2')];
    const site = await makeSite(s, { title: 'Product docs' });
    const base = `${sitesPath(s)}/${site.id}`;
    expect((await s.request('PATCH', base, { body: { basename: `product-${site.id}` } })).status).toBe(200);
    const guides = await makeSection(s, site.id, { spaceId: a, title: 'Guides', icon: 'book' });
    const api = await makeSection(s, site.id, { spaceId: b, title: 'API reference' });
    const v1 = api.siteSpaces[0];
    const v2 = await addSiteSpace(s, site.id, { spaceId: c, sectionId: api.id });
    const beta = 'visitor.claims.unsigned.beta';
    const pro = 'visitor.claims.plan == "pro" || visitor.claims.unsigned.beta';
    expect((await s.request('PATCH', `${base}/site-spaces/${v2.id}`, { body: { path: 'v2', condition: beta } })).status).toBe(200);
    expect((await s.request('PATCH', `${base}/site-spaces/${v1.id}`, { body: { path: 'v1' } })).status).toBe(200);
    expect(
      (await s.request('PATCH', `${base}/sections/${api.id}`, { body: { condition: pro, path: 'api', description: 'Every endpoint' } }))
        .status,
    ).toBe(200);
    const group = (
      await s.request('POST', `${base}/section-groups`, { body: { title: 'Docs', icon: 'folder', sections: [guides.id, api.id] } })
    ).body;
    expect((await s.request('POST', `${base}/publish`)).status).toBe(200);

    const res = await s.request('GET', `${base}/published`);
    expectSpec(res, 'GET', PUBLISHED, 200);
    const space = async (id: string) => (await s.request('GET', `/v1/spaces/${id}`)).body;
    const siteUrl = `${s.url}/sites/product-${site.id}`;
    const app = `${s.url}/app/sites/${site.id}`;
    const siteSpace = async (
      id: string,
      sectionId: string,
      spaceId: string,
      path: string,
      isDefault: boolean,
      published: string,
      condition?: string,
    ) => ({
      object: 'site-space',
      id,
      path,
      section: sectionId,
      space: await space(spaceId),
      title: (await space(spaceId)).title,
      default: isDefault,
      ...(condition ? { condition } : {}),
      draft: false,
      hidden: false,
      urls: { app: `${app}/site-spaces/${id}`, published },
    });
    const guidesView = {
      object: 'site-section',
      id: guides.id,
      title: 'Guides',
      default: true,
      draft: false,
      path: 'guides',
      sectionGroup: group.id,
      icon: 'book',
      siteSpaces: [await siteSpace(guides.siteSpaces[0].id, guides.id, a, 'guides', true, siteUrl)],
      urls: { app: `${app}/sections/${guides.id}`, published: siteUrl },
    };
    const apiView = {
      object: 'site-section',
      id: api.id,
      title: 'API reference',
      description: 'Every endpoint',
      default: false,
      draft: false,
      path: 'api',
      condition: pro,
      sectionGroup: group.id,
      siteSpaces: [
        await siteSpace(v1.id, api.id, b, 'v1', true, `${siteUrl}/api`),
        await siteSpace(v2.id, api.id, c, 'v2', false, `${siteUrl}/api/v2`, beta),
      ],
      urls: { app: `${app}/sections/${api.id}`, published: `${siteUrl}/api` },
    };
    expect(res.body).toEqual({
      object: 'published-content-site',
      site: (await s.request('GET', base)).body,
      structure: {
        type: 'sections',
        structure: [
          {
            object: 'site-section-group',
            id: group.id,
            title: 'Docs',
            icon: 'folder',
            draft: false,
            sections: [guidesView, apiView],
            children: [guidesView, apiView],
          },
        ],
      },
      customizations: { site: expect.objectContaining({ styling: expect.any(Object) }), siteSpaces: {} },
      scripts: [],
    });
    expect(res.body.site).toMatchObject({ published: true, siteSpaces: 3, basename: `product-${site.id}` });

    // What a visitor sees follows the conditions, through the evaluator the published site uses.
    const visible = (claims: Record<string, unknown>) =>
      res.body.structure.structure[0].sections
        .filter((x: any) => !x.condition || evaluateCondition(parseCondition(x.condition), { visitor: { claims } }))
        .flatMap((x: any) =>
          x.siteSpaces
            .filter((y: any) => !y.condition || evaluateCondition(parseCondition(y.condition), { visitor: { claims } }))
            .map((y: any) => y.id),
        );
    expect(visible({})).toEqual([guides.siteSpaces[0].id]);
    expect(visible({ plan: 'pro' })).toEqual([guides.siteSpaces[0].id, v1.id]);
    expect(visible({ unsigned: { beta: true } })).toEqual([guides.siteSpaces[0].id, v1.id, v2.id]);
  });

  it('200 for a site never published, siteSpaces at the root; shareKey resolves share-link URLs; 404 for unknown sites', async () => {
    const space = await makeSpaceId(s, 'Only');
    const site = await makeSite(s, { title: 'Private preview', visibility: 'share-link', spaces: [space] });
    const base = `${sitesPath(s)}/${site.id}`;
    const res = await s.request('GET', `${base}/published`);
    expectSpec(res, 'GET', PUBLISHED, 200);
    expect(res.body.site.published).toBe(false);
    expect(res.body.structure.type).toBe('siteSpaces');
    expect(res.body.structure.structure.map((x: any) => [x.space.id, x.default, x.urls.published])).toEqual([
      [space, true, `${s.url}/sites/${site.id}`],
    ]);

    const link = (await s.request('POST', `${base}/share-links`, { body: { name: 'Beta testers' } })).body;
    const key = link.urls.published.split('/').pop();
    const shared = await s.request('GET', `${base}/published?shareKey=${key}`);
    expectSpec(shared, 'GET', PUBLISHED, 200);
    expect(shared.body.site.urls.published).toBe(`${s.url}/sites/${site.id}/~share/${key}`);
    expect(shared.body.structure.structure[0].urls.published).toBe(`${s.url}/sites/${site.id}/~share/${key}`);
    const listed = await s.request('GET', `${base}/site-spaces?shareKey=${key}`);
    expect(listed.body.items[0].urls.published).toBe(`${s.url}/sites/${site.id}/~share/${key}`);
    expectError(await s.request('GET', `${base}/published?shareKey=wrong`), 400, /query\.shareKey/);
    await s.request('PATCH', `${base}/share-links/${link.id}`, { body: { active: false } });
    expectError(await s.request('GET', `${base}/published?shareKey=${key}`), 400, /query\.shareKey/);
    expectError(await s.request('GET', `${sitesPath(s)}/nope/published`), 404);
    const reader = await s.user({ org: s.orgId, role: 'read' });
    expectSpec(await s.request('GET', `${base}/published`, { token: reader.token }), 'GET', PUBLISHED, 200);
  });

  it('adaptive schema: an empty default, put and get, template conditions per boolean claim', async () => {
    const site = await makeSite(s, { title: 'Adaptive' });
    const base = `${sitesPath(s)}/${site.id}/adaptive-schema`;
    const empty = await s.request('GET', base);
    expectSpec(empty, 'GET', SCHEMA, 200);
    expect(empty.body.jsonSchema.properties.unsigned.properties).toEqual({});
    expect((await s.request('GET', `${base}/template-conditions`)).body).toEqual({ items: [] });

    const jsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: {
            beta: { type: 'boolean', description: 'Beta testers' },
            'early-access': { type: 'boolean', description: 'Early access' },
            lang: { type: 'string', enum: ['en', 'fr'], description: 'Language' },
          },
          additionalProperties: false,
        },
        isAdmin: { type: 'boolean', description: 'Administrators' },
        plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
        roles: { type: 'array', description: 'Roles', items: { type: 'string', enum: ['a', 'b'], description: 'Role' } },
        account: {
          type: 'object',
          description: 'Account',
          properties: { verified: { type: 'boolean', description: 'Verified accounts' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    s.clock.advance(60_000);
    const put = await s.request('PUT', base, { body: { jsonSchema } });
    expectSpec(put, 'PUT', SCHEMA, 200);
    expect(put.body.jsonSchema).toEqual(jsonSchema);
    expect(Date.parse(put.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(empty.body.updatedAt) + 60_000);
    const got = await s.request('GET', base);
    expectSpec(got, 'GET', SCHEMA, 200);
    expect(got.body).toEqual(put.body);
    const conditions = await s.request('GET', `${base}/template-conditions`);
    expectSpec(conditions, 'GET', `${SCHEMA}/template-conditions`, 200);
    expect(conditions.body.items).toEqual([
      { description: 'Beta testers', condition: 'visitor.claims.unsigned.beta' },
      { description: 'Early access', condition: 'visitor.claims.unsigned["early-access"]' },
      { description: 'Administrators', condition: 'visitor.claims.isAdmin' },
      { description: 'Verified accounts', condition: 'visitor.claims.account.verified' },
    ]);
    for (const item of conditions.body.items) expect(() => parseCondition(item.condition)).not.toThrow();
  });

  it('adaptive schema: anything but a draft-07 schema of the resource shape is a 400 naming the first problem; roles', async () => {
    const site = await makeSite(s, { title: 'Adaptive errors' });
    const base = `${sitesPath(s)}/${site.id}/adaptive-schema`;
    const valid = () => ({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: {}, additionalProperties: false },
      },
      additionalProperties: false,
    });
    const cases: [unknown, RegExp][] = [
      ['schema', /body\.jsonSchema must be object/],
      [{ ...valid(), type: 'array' }, /body\.jsonSchema\.type must be "object"/],
      [{ ...valid(), additionalProperties: true }, /body\.jsonSchema\.additionalProperties must be false/],
      [{ ...valid(), $schema: 'http://json-schema.org/draft-04/schema#' }, /body\.jsonSchema\.\$schema/],
      [{ ...valid(), extra: 1 }, /body\.jsonSchema must not have `extra`/],
      [{ type: 'object', additionalProperties: false }, /properties/],
      [
        { ...valid(), properties: { flag: { type: 'boolean' } } },
        /body\.jsonSchema\.properties\.flag must have required property 'description'/,
      ],
      [
        { ...valid(), properties: { flag: { type: 'number', description: 'n' } } },
        /body\.jsonSchema\.properties\.flag\.type must be one of/,
      ],
      [
        { ...valid(), properties: { plan: { type: 'string', description: 'p' } } },
        /body\.jsonSchema\.properties\.plan must have required property 'enum'/,
      ],
      [
        { ...valid(), properties: { flag: { type: 'boolean', description: 'f', default: true } } },
        /body\.jsonSchema\.properties\.flag must not have `default`/,
      ],
      [
        { ...valid(), properties: { unsigned: { ...valid().properties.unsigned, description: 'Other' } } },
        /body\.jsonSchema\.properties\.unsigned\.description/,
      ],
      [
        { ...valid(), properties: { unsigned: { ...valid().properties.unsigned, properties: { b: { type: 'boolean' } } } } },
        /body\.jsonSchema\.properties\.unsigned\.properties\.b/,
      ],
    ];
    for (const [jsonSchema, message] of cases) expectError(await s.request('PUT', base, { body: { jsonSchema } }), 400, message);
    expectError(await s.request('PUT', base, { body: {} }), 400, /jsonSchema/);
    expectError(await s.request('PUT', base, { body: { jsonSchema: valid(), more: 1 } }), 400, /more/);
    const creator = await s.user({ org: s.orgId, role: 'create' });
    expectError(await s.request('PUT', base, { token: creator.token, body: { jsonSchema: valid() } }), 403);
    expectSpec(await s.request('GET', base, { token: creator.token }), 'GET', SCHEMA, 200);
    expectError(await s.request('GET', `${sitesPath(s)}/nope/adaptive-schema`), 404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../../helpers/server.js';
import { expectSpec } from '../../helpers/expect-spec.js';
import { createSpace } from '../../helpers/spaces.js';
import { WebClient } from '../../helpers/web.js';
import { makeSite, sitesPath } from '../../helpers/sites.js';

const path = (url: string) => new URL(url).pathname;

const shop = (extra = '') => `openapi: 3.0.3
info: { title: Shop, version: "1" }
tags:
  - name: orders
    description: Orders of the shop
paths:
  /orders:
    get:
      tags: [orders]
      operationId: listOrders
      summary: List orders
      description: Every order placed with the octopus shop.
      responses:
        "200": { description: The orders }
${extra}`;

const REFUNDS = `  /refunds:
    post:
      tags: [orders]
      operationId: createRefund
      summary: Create a refund
      responses:
        "201": { description: The refund }
`;

const SOURCE = { type: 'builtin:openapi', props: { models: false }, dependencies: { spec: { ref: { kind: 'openapi', spec: 'shop' } } } };

/** API reference pages (issue 20) on the server's pages: listed, opened, rendered in diffs. */
describe.each(testDialects())('API reference pages on the web (%s)', (dialect) => {
  let s: TestServer;
  let spaceId: string;
  let web: WebClient;
  beforeAll(async () => {
    s = await startServer(dialect);
    const created = await s.request('POST', `/v1/orgs/${s.orgId}/openapi`, { body: { slug: 'shop', source: { text: shop() } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const space = await createSpace(s, { title: 'Shop docs' });
    spaceId = space.id;
    const cr = await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Reference' } });
    const written = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      body: {
        changes: [
          { operation: 'insert_page', title: 'Overview', document: { markdown: '# Overview\n\nHow the shop works.\n' } },
          { operation: 'insert_page', type: 'computed', title: 'API reference', computed: SOURCE, document: {} },
        ],
      },
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    expect((await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    web = new WebClient(s.url);
    await web.signIn(s.token);
  });
  afterAll(async () => s?.close());

  const generatedIds = async () => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/content/pages`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/content/pages', 200);
    const computed = res.body.pages.find((p: { type: string }) => p.type === 'computed');
    const tag = computed.pages[0];
    return { tag: tag.id as string, operations: tag.pages.map((p: { id: string }) => p.id) as string[] };
  };

  it("lists the generated pages in a space's navigation, opens them, and follows a new version of the spec", async () => {
    const { tag, operations } = await generatedIds();
    const home = await web.get(`/app/spaces/${spaceId}`);
    expect(home.status).toBe(200);
    expect(home.text).toContain('<span class="ds-nav-group-title">API reference</span>');
    expect(home.text).toContain(`href="/app/spaces/${spaceId}/pages/${tag}"`);
    const tagPage = await web.get(`/app/spaces/${spaceId}/pages/${tag}`);
    expect(tagPage.status).toBe(200);
    expect(tagPage.text).toContain('Orders of the shop');
    // The tag's operations are listed once it is open.
    expect(tagPage.text).toContain(`href="/app/spaces/${spaceId}/pages/${operations[0]}"`);
    const operation = await web.get(`/app/spaces/${spaceId}/pages/${operations[0]}`);
    expect(operation.status).toBe(200);
    expect(operation.text).toContain('Every order placed with the octopus shop.');
    expect(operation.text).toContain('/orders');

    const put = await s.request('PUT', `/v1/orgs/${s.orgId}/openapi/shop`, { body: { source: { text: shop(REFUNDS) } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const after = await generatedIds();
    expect(after.operations).toHaveLength(2);
    const refund = await web.get(`/app/spaces/${spaceId}/pages/${after.operations[1]}`);
    expect(refund.status).toBe(200);
    expect(refund.text).toContain('Create a refund');
    expect((await web.get(`/app/spaces/${spaceId}/pages/${tag}`)).text).toContain(
      `href="/app/spaces/${spaceId}/pages/${after.operations[1]}"`,
    );

    // Not for someone who cannot read the space.
    const stranger = await s.organization();
    const outsider = new WebClient(s.url);
    await outsider.signIn(stranger.adminToken);
    expect((await outsider.get(`/app/spaces/${spaceId}/pages/${tag}`)).status).toBe(404);
  });

  it('lists and serves the generated pages on a published site, as HTML, markdown, in llms.txt and the sitemap', async () => {
    const site = await makeSite(s, { title: 'Shop site', spaces: [spaceId] });
    expect((await s.request('POST', `${sitesPath(s)}/${site.id}/publish`)).status).toBe(200);
    const root = path(site.urls.published);
    const visitor = new WebClient(s.url);
    const home = await visitor.get(root);
    expect(home.text).toContain(`href="${root}/orders"`);
    const opPage = await visitor.get(`${root}/orders/listorders`);
    expect(opPage.status).toBe(200);
    expect(opPage.text).toContain('Every order placed with the octopus shop.');
    const md = await visitor.get(`${root}/orders/listorders.md`);
    expect(md.status).toBe(200);
    expect(md.text).toContain('Every order placed with the octopus shop.');
    expect((await visitor.get(`${root}/llms.txt`)).text).toContain(`${root}/orders/listorders.md`);
    expect((await visitor.get(`${root}/sitemap.xml`)).text).toContain(`${root}/orders/listorders</loc>`);
    expect((await visitor.get(`${root}/orders/nothing-here`)).status).toBe(404);
  });

  it('finds the generated pages with the API search, the space search page and the published site search, after a new version too', async () => {
    const search = async (q: string) => {
      const res = await s.request('GET', `/v1/spaces/${spaceId}/search?query=${q}`);
      expectSpec(res, 'GET', '/spaces/{spaceId}/search', 200);
      return res.body.items as { id: string; title: string; path: string; ancestors: { title: string }[]; urls: { app: string } }[];
    };
    const { operations } = await generatedIds();
    const [hit] = await search('octopus');
    expect(hit).toMatchObject({ id: operations[0], title: 'List orders', path: 'orders/listorders' });
    expect(hit!.ancestors.map((a) => a.title)).toEqual(['API reference', 'orders']);
    expect((await web.get(path(hit!.urls.app))).status).toBe(200);
    expect((await web.get(`/app/spaces/${spaceId}/search?q=octopus`)).text).toContain(
      `href="/app/spaces/${spaceId}/pages/${operations[0]}"`,
    );

    const site = await makeSite(s, { title: 'Searchable shop', spaces: [spaceId] });
    expect((await s.request('POST', `${sitesPath(s)}/${site.id}/publish`)).status).toBe(200);
    const visitor = new WebClient(s.url);
    const root = path(site.urls.published);
    expect((await visitor.get(`${root}/~search?q=octopus`)).text).toContain(`href="${root}/orders/listorders"`);

    expect(await search('narwhal')).toEqual([]);
    const narwhal = REFUNDS.replace('Create a refund', 'Create a narwhal refund');
    expect((await s.request('PUT', `/v1/orgs/${s.orgId}/openapi/shop`, { body: { source: { text: shop(narwhal) } } })).status).toBe(200);
    expect((await search('narwhal')).map((h) => h.title)).toContain('Create a narwhal refund');
  });

  it("renders openapi blocks in a change request's diff and preview from the organization's spec", async () => {
    const cr = await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Block' } });
    const changes = [
      {
        operation: 'insert_page',
        title: 'Listing',
        document: {
          markdown: '# Listing\n\n{% openapi-operation spec="shop" path="/orders" method="get" %}\n{% endopenapi-operation %}\n',
        },
      },
    ];
    const written = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      body: { changes },
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const diff = await web.get(`/app/spaces/${spaceId}/change-requests/${cr.body.number}`);
    expect(diff.status).toBe(200);
    expect(diff.text).toContain('gb-openapi-operation');
    expect(diff.text).toContain('<strong>List orders</strong>');
    const preview = await web.get(`/app/spaces/${spaceId}/change-requests/${cr.body.number}/pages/${written.body.changes[0].page.id}`);
    expect(preview.text).toContain('<strong>List orders</strong>');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { PETS_V1, PETS_V2, PET_SCHEMA, startSpecFixture, type SpecFixture } from '../helpers/openapi-fixture.js';
import { WebClient } from '../helpers/web.js';
import { spaceWithPages } from '../helpers/web-content.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

const PAGES = '/spaces/{spaceId}/content/pages';
const PAGE = '/spaces/{spaceId}/content/page/{pageId}';
const PATH = '/spaces/{spaceId}/content/path/{pagePath}';

interface Page {
  id: string;
  type: string;
  title: string;
  slug?: string;
  path?: string;
  markdown?: string;
  generatedBy?: { props: Record<string, unknown> };
  computedSeed?: string;
  pages?: Page[];
}

/**
 * API reference pages (docs/api.md): a `builtin:openapi` computed page generates, on read, one
 * page per tag and per operation of the latest processed version of the spec it names.
 */
describe.each(testDialects())('API reference pages (%s)', (dialect) => {
  let s: TestServer;
  let fixture: SpecFixture;
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    fixture = await startSpecFixture();
  });
  afterAll(async () => {
    await fixture?.close();
    await s?.close();
  });

  /** Polls until the spec's job recorded a new version: the job's time is the machine's, so the deadline is generous. */
  async function processed(slug: string, previous?: string) {
    for (const until = Date.now() + EVENT_WAIT_MS; Date.now() < until;) {
      const res = await s.request('GET', `/v1/orgs/${s.orgId}/openapi/${slug}`);
      if (res.body.processingState === 'complete' && res.body.lastVersion !== previous) return res.body.lastVersion as string;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`spec ${slug} was not processed within ${EVENT_WAIT_MS / 1000} s`);
  }

  it(
    'lists the generated pages under the computed page, reads them by id and path, and follows a new version',
    { timeout: PROCESS_TEST_MS },
    async () => {
      fixture.files.set('/api/openapi.yaml', PETS_V1);
      await s.request('POST', `/v1/orgs/${s.orgId}/openapi`, {
        body: { slug: 'pets', source: { url: `${fixture.url}/api/openapi.yaml` } },
      });
      const v1 = await processed('pets');
      const space = await createSpace(s, { title: 'API' });
      const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Reference' } });
      const source = {
        type: 'builtin:openapi',
        props: { models: true },
        dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } },
      };
      const written = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content?compat=false`, {
        body: {
          changes: [
            { operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro\n\nHello.\n' } },
            { operation: 'insert_page', type: 'computed', title: 'pets', computed: source, document: {} },
          ],
        },
      });
      expect(written.status).toBe(200);
      const computedId = written.body.changes[1].page.id as string;
      expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);

      const read = async (query = '') => {
        const res = await s.request('GET', `/v1/spaces/${space.id}/content/pages${query}`);
        expectSpec(res, 'GET', PAGES, 200);
        return (res.body.pages as Page[]).find((p) => p.id === computedId)!;
      };
      const computed = await read('?format=markdown');
      expect(computed.type).toBe('computed');
      // The spec has no components.schemas: no models page.
      expect(computed.pages!.map((p) => [p.title, p.slug, p.path])).toEqual([['pets', 'pets', 'pets']]);
      const tag = computed.pages![0]!;
      expect(tag).toMatchObject({ type: 'document', generatedBy: { type: 'builtin:openapi', props: { doc: 'tag', page: 'pets' } } });
      expect(tag.markdown).toContain('Everything about pets');
      const op = tag.pages![0]!;
      expect(op).toMatchObject({
        title: 'List pets',
        slug: 'listpets',
        path: 'pets/listpets',
        generatedBy: {
          props: { doc: 'operation', page: '/pets', method: 'get' },
          dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } },
        },
        computedSeed: 'operation:get:/pets',
      });
      expect(op.markdown).toContain('`GET /pets`');
      expect(op.markdown).toContain('| `limit` | query | integer | no |');
      expect(op.markdown).toContain('### 200');
      expect(op.markdown).toContain('- `name` (string, required)');
      expect(op).not.toHaveProperty('git');

      // Stable ids across reads; none generated with computed=false.
      expect((await read()).pages![0]!.pages![0]!.id).toBe(op.id);
      expect((await read('?computed=false')).pages).toBeUndefined();

      const byId = await s.request('GET', `/v1/spaces/${space.id}/content/page/${op.id}?format=markdown`);
      expectSpec(byId, 'GET', PAGE, 200);
      expect(byId.body).toMatchObject({ id: op.id, markdown: op.markdown, path: 'pets/listpets' });
      const asDocument = await s.request('GET', `/v1/spaces/${space.id}/content/page/${op.id}`);
      expectSpec(asDocument, 'GET', PAGE, 200);
      expect(asDocument.body.document.object).toBe('document');
      const byPath = await s.request('GET', `/v1/spaces/${space.id}/content/path/pets/listpets?format=markdown`);
      expectSpec(byPath, 'GET', PATH, 200);
      expect(byPath.body.id).toBe(op.id);
      const computedById = await s.request('GET', `/v1/spaces/${space.id}/content/page/${computedId}`);
      expectSpec(computedById, 'GET', PAGE, 200);
      expect(computedById.body.pages.map((p: Page) => p.id)).toEqual(computed.pages!.map((p) => p.id));

      // A new version: the next read has its operation, the earlier pages keep their ids.
      fixture.files.set('/api/openapi.yaml', PETS_V2);
      await s.request('PUT', `/v1/orgs/${s.orgId}/openapi/pets`, { body: { source: { url: `${fixture.url}/api/openapi.yaml` } } });
      await processed('pets', v1);
      const after = await read('?format=markdown');
      expect(after.pages![0]!.pages!.map((p) => p.generatedBy!.props.method)).toEqual(['get', 'post']);
      expect(after.pages![0]!.pages![0]!.id).toBe(op.id);
    },
  );

  it(
    "renders a page's openapi-operation block from the spec on the app's pages, and a new version on the next visit",
    { timeout: PROCESS_TEST_MS },
    async () => {
      const spec = (extra: string) =>
        `openapi: 3.0.3\ninfo: { title: Shop, version: "1" }\npaths:\n  /orders:\n    get:\n      summary: List orders${extra}\n      responses:\n        "200": { description: The orders }\n`;
      expect((await s.request('POST', `/v1/orgs/${s.orgId}/openapi`, { body: { slug: 'shop', source: { text: spec('') } } })).status).toBe(
        201,
      );
      const { space, ids } = await spaceWithPages(s, [
        {
          title: 'Orders',
          markdown: '# Orders\n\n{% openapi-operation spec="shop" path="/orders" method="get" %}\n{% endopenapi-operation %}\n',
        },
      ]);
      const web = new WebClient(s.url);
      await web.signIn(s.token);
      const page = `/app/spaces/${space.id}/pages/${ids.get('Orders')}`;
      const first = await web.get(page);
      expect(first.status).toBe(200);
      expect(first.text).toContain('gb-openapi-operation');
      expect(first.text).toContain('<strong>List orders</strong>');
      expect(first.text).toContain('The orders');
      expect(
        (await s.request('PUT', `/v1/orgs/${s.orgId}/openapi/shop`, { body: { source: { text: spec(' and refunds') } } })).status,
      ).toBe(200);
      expect((await web.get(page)).text).toContain('<strong>List orders and refunds</strong>');
    },
  );

  it(
    'fills the older openapi and swagger blocks from the spec their src names, by slug or by its source URL',
    { timeout: PROCESS_TEST_MS },
    async () => {
      fixture.files.set('/legacy/openapi.yaml', PETS_V1);
      fixture.files.set('/legacy/schemas/pet.yaml', PET_SCHEMA);
      const url = `${fixture.url}/legacy/openapi.yaml`;
      await s.request('POST', `/v1/orgs/${s.orgId}/openapi`, { body: { slug: 'legacy', source: { url } } });
      await processed('legacy');
      const { space, ids } = await spaceWithPages(s, [
        {
          title: 'Legacy',
          markdown: [
            '# Legacy',
            '',
            `{% openapi src="${url}" path="/pets" method="get" %}`,
            `[openapi.yaml](${url})`,
            '{% endopenapi %}',
            '',
            '{% swagger src="legacy" path="/pets" method="get" %}',
            '{% swagger-description %}',
            'Hand-written',
            '{% endswagger-description %}',
            '{% endswagger %}',
            '',
            '{% openapi src="https://elsewhere.example/none.yaml" path="/pets" method="get" %}',
            '{% endopenapi %}',
          ].join('\n'),
        },
      ]);
      const web = new WebClient(s.url);
      await web.signIn(s.token);
      const page = await web.get(`/app/spaces/${space.id}/pages/${ids.get('Legacy')}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('gb-openapi-block gb-openapi"');
      expect(page.text).toContain('gb-openapi-block gb-swagger"');
      expect(page.text.match(/<strong>List pets<\/strong>/g)).toHaveLength(2);
      expect(page.text).not.toContain('Hand-written');
      // A src naming no spec of the organization stays a placeholder.
      expect(page.text).toContain('from https://elsewhere.example/none.yaml');
    },
  );

  it('gives a generated page whose slug a stored page beside it has the next free suffix', { timeout: PROCESS_TEST_MS }, async () => {
    await s.request('POST', `/v1/orgs/${s.orgId}/openapi`, {
      body: { slug: 'clash', source: { url: `${fixture.url}/api/openapi.yaml` } },
    });
    await processed('clash');
    const space = await createSpace(s, { title: 'Clash' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Reference' } });
    const source = {
      type: 'builtin:openapi',
      props: { models: false },
      dependencies: { spec: { ref: { kind: 'openapi', spec: 'clash' } } },
    };
    const written = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content?compat=false`, {
      body: {
        changes: [
          { operation: 'insert_page', title: 'Pets', document: { markdown: '# Pets\n\nWritten by hand.\n' } },
          { operation: 'insert_page', title: 'Pets 2', slug: 'pets-2', document: { markdown: '# Pets 2\n\nAlso by hand.\n' } },
          { operation: 'insert_page', type: 'computed', title: 'API', computed: source, document: {} },
        ],
      },
    });
    expect(written.status, JSON.stringify(written.body)).toBe(200);
    const stored = written.body.changes[0].page.id as string;
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const pages = await s.request('GET', `/v1/spaces/${space.id}/content/pages`);
    expectSpec(pages, 'GET', PAGES, 200);
    const computed = (pages.body.pages as Page[]).find((p) => p.type === 'computed')!;
    expect(computed.pages!.map((p) => [p.slug, p.path])).toEqual([['pets-3', 'pets-3']]);
    expect(computed.pages![0]!.pages![0]!.path).toBe('pets-3/listpets');
    const again = await s.request('GET', `/v1/spaces/${space.id}/content/pages`);
    expect((again.body.pages as Page[]).find((p) => p.type === 'computed')!.pages![0]!.slug).toBe('pets-3');
    const byPath = await s.request('GET', `/v1/spaces/${space.id}/content/path/pets`);
    expectSpec(byPath, 'GET', PATH, 200);
    expect(byPath.body.id).toBe(stored);
    const generated = await s.request('GET', `/v1/spaces/${space.id}/content/path/pets-3/listpets`);
    expectSpec(generated, 'GET', PATH, 200);
    expect(generated.body.id).toBe(computed.pages![0]!.pages![0]!.id);
  });

  it(
    'processes a Swagger 2.0 spec fetched over HTTP, with a $ref to a second file, into reference pages',
    { timeout: PROCESS_TEST_MS },
    async () => {
      fixture.files.set(
        '/v2/swagger.yaml',
        [
          'swagger: "2.0"',
          'info: { title: Orders, version: "2.0" }',
          'host: shop.example.com',
          'basePath: /api',
          'consumes: [application/json]',
          'produces: [application/json]',
          'tags:',
          '  - name: orders',
          '    description: Orders of the shop',
          'paths:',
          '  /orders:',
          '    post:',
          '      tags: [orders]',
          '      operationId: createOrder',
          '      summary: Create an order',
          '      parameters:',
          '        - { name: order, in: body, required: true, schema: { $ref: "#/definitions/Order" } }',
          '      responses:',
          '        "201": { description: Created, schema: { $ref: "#/definitions/Order" } }',
          '  /orders/{id}:',
          '    get:',
          '      tags: [orders]',
          '      operationId: getOrder',
          '      summary: Get an order',
          '      parameters:',
          '        - { name: id, in: path, required: true, type: string, description: The order }',
          '      responses:',
          '        "200": { description: The order, schema: { $ref: "#/definitions/Order" } }',
          '        "404": { description: No such order }',
          'definitions:',
          '  Order: { $ref: "definitions/order.yaml" }',
          '',
        ].join('\n'),
      );
      fixture.files.set(
        '/v2/definitions/order.yaml',
        'type: object\nrequired: [total]\nproperties:\n  total: { type: number, description: In cents }\n',
      );
      const made = await s.request('POST', `/v1/orgs/${s.orgId}/openapi`, {
        body: { slug: 'orders-v2', source: { url: `${fixture.url}/v2/swagger.yaml` } },
      });
      expect(made.status).toBe(201);
      await processed('orders-v2');
      const spec = await s.request('GET', `/v1/orgs/${s.orgId}/openapi/orders-v2`);
      expect(spec.body).toMatchObject({ processingState: 'complete' });
      expect(spec.body.lastProcessErrorCode).toBeUndefined();
      const content = await s.request('GET', `/v1/orgs/${s.orgId}/openapi/orders-v2/versions/latest/content`);
      expect(content.status).toBe(200);
      expect(Object.keys(content.body.filesystem.files)).toHaveLength(2);

      const space = await createSpace(s, { title: 'Swagger' });
      const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Reference' } });
      const source = {
        type: 'builtin:openapi',
        props: { models: true },
        dependencies: { spec: { ref: { kind: 'openapi', spec: 'orders-v2' } } },
      };
      await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, {
        body: { changes: [{ operation: 'insert_page', type: 'computed', title: 'API', computed: source, document: {} }] },
      });
      expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
      const res = await s.request('GET', `/v1/spaces/${space.id}/content/pages?format=markdown`);
      expectSpec(res, 'GET', PAGES, 200);
      const computed = (res.body.pages as Page[]).find((p) => p.type === 'computed')!;
      expect(computed.pages!.map((p) => [p.title, p.slug])).toEqual([
        ['orders', 'orders'],
        ['Models', 'models'],
      ]);
      const [create, get] = computed.pages![0]!.pages!;
      expect([create!.slug, get!.slug]).toEqual(['createorder', 'getorder']);
      expect(create!.markdown).toContain('`POST /orders`');
      expect(create!.markdown).toContain('## Request body\n\nRequired.\n\n`application/json`: Order');
      expect(create!.markdown).toContain('- `total` (number, required): In cents');
      expect(get!.markdown).toContain('| `id` | path | string | yes | The order |');
      expect(get!.markdown).toContain('### 404\n\nNo such order');
      expect(computed.pages![1]!.markdown).toContain('## Order\n\nType: object\n\n- `total` (number, required): In cents');
    },
  );

  it("lists an OpenAPI 3.1 spec's webhooks as generated pages beside its operations", async () => {
    const spec = [
      'openapi: 3.1.0',
      'info: { title: Hooks, version: "1" }',
      'paths:',
      '  /pets:',
      '    get: { tags: [pets], operationId: listPets, responses: { "200": { description: ok } } }',
      'webhooks:',
      '  newPet:',
      '    post:',
      '      tags: [pets]',
      '      operationId: petAdded',
      '      summary: A pet was added',
      '      responses: { "200": { description: Received } }',
      '  petGone:',
      '    post: { summary: A pet left, responses: { "200": { description: Received } } }',
      '',
    ].join('\n');
    expect((await s.request('POST', `/v1/orgs/${s.orgId}/openapi`, { body: { slug: 'hooks', source: { text: spec } } })).status).toBe(201);
    const space = await createSpace(s, { title: 'Hooks' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Reference' } });
    const source = {
      type: 'builtin:openapi',
      props: { models: false },
      dependencies: { spec: { ref: { kind: 'openapi', spec: 'hooks' } } },
    };
    await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, {
      body: { changes: [{ operation: 'insert_page', type: 'computed', title: 'API', computed: source, document: {} }] },
    });
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const res = await s.request('GET', `/v1/spaces/${space.id}/content/pages?format=markdown`);
    expectSpec(res, 'GET', PAGES, 200);
    const computed = (res.body.pages as Page[]).find((p) => p.type === 'computed')!;
    expect(computed.pages!.map((p) => p.slug)).toEqual(['pets', 'a-pet-left']);
    const [list, added] = computed.pages![0]!.pages!;
    expect([list!.slug, added!.slug]).toEqual(['listpets', 'petadded']);
    expect(added).toMatchObject({
      title: 'A pet was added',
      computedSeed: 'webhook:post:newPet',
      generatedBy: { props: { doc: 'webhook', name: 'newPet', method: 'post' } },
    });
    expect(added!.markdown).toContain('Webhook `newPet`: `POST`');
    expect(computed.pages![1]).toMatchObject({ title: 'A pet left', computedSeed: 'webhook:post:petGone' });
  });

  it('generates nothing for a spec that does not exist', async () => {
    const space = await createSpace(s, { title: 'None' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Reference' } });
    const source = {
      type: 'builtin:openapi',
      props: { models: false },
      dependencies: { spec: { ref: { kind: 'openapi', spec: 'nope' } } },
    };
    await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, {
      body: { changes: [{ operation: 'insert_page', type: 'computed', title: 'nope', computed: source, document: {} }] },
    });
    const res = await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content/pages`);
    expectSpec(res, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages', 200);
    expect(res.body.pages.find((p: Page) => p.type === 'computed')).not.toHaveProperty('pages');
  });
});

import { describe, expect, it } from 'vitest';
import { renderPage } from '../../src/render/index.js';
import type { OpenApiFiles } from '../../src/content/index.js';
import { pageOf, testSite } from './site.js';

const PETS: OpenApiFiles = {
  entry: 'openapi.yaml',
  files: {
    'openapi.yaml': {
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1.0' },
      paths: {
        '/pets/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          get: {
            operationId: 'getPet',
            summary: 'Get a pet',
            description: 'One pet, by id.',
            responses: {
              '200': { description: 'The pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
              '404': { description: 'No such pet' },
            },
          },
        },
      },
      components: { schemas: { Pet: { $ref: 'schemas/pet.yaml' } } },
    },
    'schemas/pet.yaml': {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', description: 'What it answers to' }, kind: { type: 'string', enum: ['cat', 'dog'] } },
    },
  },
};

// The renderer is pure: the caller resolves the spec (site.openapi, by slug) and passes it in.
describe('OpenAPI blocks', () => {
  const withSpec = testSite({ openapi: new Map([['pets', PETS]]) });
  const render = (markdown: string, site = withSpec) => renderPage(site, pageOf(site, 'README.md'), markdown);

  it('openapi-operation: the operation, its parameters and responses, from the spec the site passes in', () => {
    const out = render('{% openapi-operation spec="pets" path="/pets/{id}" method="get" %}\n{% endopenapi-operation %}');
    expect(out.problems).toEqual([]);
    expect(out.html).toContain('<div class="gb-openapi-block gb-openapi-operation">');
    expect(out.html).toContain('<strong>Get a pet</strong>');
    expect(out.html).toContain('<code>GET /pets/{id}</code>');
    expect(out.html).toContain('One pet, by id.');
    expect(out.html).toMatch(/<td><code>id<\/code><\/td>\s*<td>path<\/td>\s*<td>string<\/td>\s*<td>yes<\/td>/);
    expect(out.html).toContain('<code>name</code> (string, required): What it answers to');
    expect(out.html).toContain('No such pet');
    // Named by its component (`Pet`), not by the file the component refers to (`pet.yaml`).
    expect(out.html).toContain('<code>application/json</code>: Pet');
    // Deterministic: the same input renders the same HTML.
    expect(render('{% openapi-operation spec="pets" path="/pets/{id}" method="get" %}\n{% endopenapi-operation %}').html).toBe(out.html);
  });

  it('openapi-schemas: each named schema with its properties', () => {
    const out = render('{% openapi-schemas spec="pets" schemas="Pet" %}\n{% endopenapi-schemas %}');
    expect(out.html).toContain('<div class="gb-openapi-block gb-openapi-schemas">');
    expect(out.html).toContain('<h3 id="pet">Pet<');
    expect(out.html).toContain('<code>kind</code> (string): Allowed: <code>"cat"</code>, <code>"dog"</code>.');
  });

  it('an unknown operation is a problem; a spec the site does not have stays a placeholder card', () => {
    const missing = render('{% openapi-operation spec="pets" path="/nope" method="get" %}\n{% endopenapi-operation %}');
    expect(missing.problems.map((p) => p.message)).toEqual(['openapi-operation: the spec pets has no operation GET /nope']);
    expect(missing.html).toContain('gb-card gb-openapi');
    const unknown = render('{% openapi-operation spec="other" path="/pets/{id}" method="get" %}\n{% endopenapi-operation %}');
    expect(unknown.html).toContain('gb-card gb-openapi');
    expect(
      render('{% openapi-operation spec="pets" path="/pets/{id}" method="get" %}\n{% endopenapi-operation %}', testSite()).html,
    ).toContain('OpenAPI: GET /pets/{id}');
  });

  it('the older openapi and swagger blocks fill like openapi-operation when their src names a spec the site passes in', () => {
    const site = testSite({
      openapi: new Map([
        ['https://api.example.com/pets.yaml', PETS],
        ['pets', PETS],
      ]),
    });
    const openapi = render('{% openapi src="https://api.example.com/pets.yaml" path="/pets/{id}" method="get" %}\n{% endopenapi %}', site);
    expect(openapi.problems).toEqual([]);
    expect(openapi.html).toContain('<div class="gb-openapi-block gb-openapi">');
    expect(openapi.html).toContain('<strong>Get a pet</strong>');
    expect(openapi.html).toContain('<code>GET /pets/{id}</code>');
    const swagger = render(
      [
        '{% swagger src="pets" path="/pets/{id}" method="get" %}',
        '{% swagger-description %}',
        'Written by hand',
        '{% endswagger-description %}',
        '{% endswagger %}',
      ].join('\n'),
      site,
    );
    expect(swagger.html).toContain('<div class="gb-openapi-block gb-swagger">');
    expect(swagger.html).toContain('One pet, by id.');
    expect(swagger.html).not.toContain('Written by hand');
    const missing = render('{% swagger src="pets" path="/nope" method="post" %}\n{% endswagger %}', site);
    expect(missing.problems.map((p) => p.message)).toEqual(['swagger: the spec pets has no operation POST /nope']);
    // Not a spec the site has, or no operation named: the placeholder card as before.
    expect(
      render('{% openapi src="https://elsewhere.example/x.yaml" path="/pets/{id}" method="get" %}\n{% endopenapi %}', site).html,
    ).toContain('OpenAPI: GET /pets/{id}');
    expect(render('{% openapi src="pets" %}\n{% endopenapi %}', site).html).toContain('gb-card gb-openapi');
  });

  it('openapi-webhook: a 3.1 webhook, by name and method', () => {
    const hooks: OpenApiFiles = {
      entry: 'openapi.yaml',
      files: {
        'openapi.yaml': {
          openapi: '3.1.0',
          info: { title: 'Hooks', version: '1' },
          webhooks: {
            newPet: {
              post: {
                summary: 'A pet was added',
                requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } },
                responses: { '200': { description: 'Received' } },
              },
            },
          },
        },
      },
    };
    const site = testSite({ openapi: new Map([['hooks', hooks]]) });
    const out = render('{% openapi-webhook spec="hooks" name="newPet" method="post" %}\n{% endopenapi-webhook %}', site);
    expect(out.problems).toEqual([]);
    expect(out.html).toContain('<div class="gb-openapi-block gb-openapi-webhook">');
    expect(out.html).toContain('<strong>A pet was added</strong>');
    expect(out.html).toContain('Webhook <code>newPet</code>: <code>POST</code>');
    expect(out.html).toContain('<code>id</code> (string)');
    const missing = render('{% openapi-webhook spec="hooks" name="nope" method="post" %}\n{% endopenapi-webhook %}', site);
    expect(missing.problems.map((p) => p.message)).toEqual(['openapi-webhook: the spec hooks has no webhook POST nope']);
  });
});

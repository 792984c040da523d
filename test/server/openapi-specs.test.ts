import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { INVALID_SPEC, PETS_V1, PETS_V2, PET_SCHEMA, startSpecFixture, type SpecFixture } from '../helpers/openapi-fixture.js';
import { OPENAPI_LIMITS } from '../../src/server/openapi/limits.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

const SPEC = '/orgs/{organizationId}/openapi/{specSlug}';

describe.each(testDialects())('OpenAPI specs and versions (%s)', (dialect) => {
  let s: TestServer;
  let fixture: SpecFixture;
  const timeout = OPENAPI_LIMITS.timeoutMs;
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    fixture = await startSpecFixture();
  });
  afterAll(async () => {
    OPENAPI_LIMITS.timeoutMs = timeout;
    await fixture?.close();
    await s?.close();
  });
  afterEach(() => {
    fixture.files.set('/api/openapi.yaml', PETS_V1);
    OPENAPI_LIMITS.timeoutMs = timeout;
  });

  const base = () => `/v1/orgs/${s.orgId}/openapi`;
  /**
   * Waits for the processing job the server started to finish, polled (the job says so only in its
   * row): its time is the machine's, so the deadline is the test's, not a count of polls.
   */
  async function processed(slug: string, orgId = s.orgId, token = s.token, server = s) {
    for (const until = Date.now() + EVENT_WAIT_MS; Date.now() < until;) {
      const res = await server.request('GET', `/v1/orgs/${orgId}/openapi/${slug}`, { token });
      if (res.body.processingState === 'complete') return res;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`spec ${slug} was not processed within ${EVENT_WAIT_MS / 1000} s`);
  }

  it('creates from a URL (201, pending), processes YAML with a $ref to a second file, and serves the version', async () => {
    const made = await s.request('POST', base(), { body: { slug: 'pets', source: { url: `${fixture.url}/api/openapi.yaml` } } });
    expectSpec(made, 'POST', '/orgs/{organizationId}/openapi', 201);
    expect(made.headers.get('location')).toBe(`${s.url}/v1/orgs/${s.orgId}/openapi/pets`);
    expect(made.body).toMatchObject({
      object: 'openapi-spec',
      slug: 'pets',
      sourceURL: `${fixture.url}/api/openapi.yaml`,
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
    });
    expect(['pending', 'progress', 'complete']).toContain(made.body.processingState);

    const done = await processed('pets');
    expectSpec(done, 'GET', SPEC, 200);
    expect(done.body.lastVersion).toEqual(expect.any(String));
    expect(done.body.lastProcessedAt).toEqual(expect.any(String));
    expect(done.body.lastProcessErrorCode).toBeUndefined();

    const versions = await s.request('GET', `${base()}/pets/versions`);
    expectSpec(versions, 'GET', `${SPEC}/versions`, 200);
    expect(versions.body.items.map((v: { id: string }) => v.id)).toEqual([done.body.lastVersion]);
    const latest = await s.request('GET', `${base()}/pets/versions/latest`);
    expectSpec(latest, 'GET', `${SPEC}/versions/latest`, 200);
    expect(latest.body).toMatchObject({
      object: 'openapi-spec-version',
      id: done.body.lastVersion,
      url: `${fixture.url}/api/openapi.yaml`,
    });
    const byId = await s.request('GET', `${base()}/pets/versions/${done.body.lastVersion}`);
    expectSpec(byId, 'GET', `${SPEC}/versions/{versionId}`, 200);
    expect(byId.body).toEqual(latest.body);

    const content = await s.request('GET', `${base()}/pets/versions/latest/content`);
    expectSpec(content, 'GET', `${SPEC}/versions/latest/content`, 200);
    expect(content.body.url).toBe(`${fixture.url}/api/openapi.yaml`);
    expect(content.body.filesystem.entry).toBe('openapi.yaml');
    expect(Object.keys(content.body.filesystem.files).sort()).toEqual(['openapi.yaml', 'schemas/pet.yaml']);
    expect(content.body.filesystem.files['schemas/pet.yaml']).toMatchObject({ type: 'object', required: ['name'] });
    expect(content.body.filesystem.files['openapi.yaml'].info).toEqual({ title: 'Pets', version: '1.0' });
    const contentById = await s.request('GET', `${base()}/pets/versions/${done.body.lastVersion}/content`);
    expectSpec(contentById, 'GET', `${SPEC}/versions/{versionId}/content`, 200);
    expect(contentById.body).toEqual(content.body);
  });

  it('PUT re-processes: an unchanged spec keeps its version, a changed one (even in a $ref file) makes a new one', async () => {
    const url = `${fixture.url}/api/openapi.yaml`;
    const created = await s.request('PUT', `${base()}/changing`, { body: { source: { url } } });
    expectSpec(created, 'PUT', SPEC, 200);
    const first = await processed('changing');
    s.clock.advance(1000);
    const again = await s.request('PUT', `${base()}/changing`, { body: { source: { url } } });
    expectSpec(again, 'PUT', SPEC, 200);
    const same = await processed('changing');
    expect(same.body.lastVersion).toBe(first.body.lastVersion);
    expect((await s.request('GET', `${base()}/changing/versions`)).body.items).toHaveLength(1);

    fixture.files.set('/api/openapi.yaml', PETS_V2);
    s.clock.advance(1000);
    await s.request('PUT', `${base()}/changing`, { body: { source: { url } } });
    const changed = await processed('changing');
    expect(changed.body.lastVersion).not.toBe(first.body.lastVersion);
    const list = await s.request('GET', `${base()}/changing/versions?limit=1`);
    expect(list.body.items.map((v: { id: string }) => v.id)).toEqual([first.body.lastVersion]);
    const rest = await s.request('GET', `${base()}/changing/versions?limit=1&page=${list.body.next.page}`);
    expect(rest.body.items.map((v: { id: string }) => v.id)).toEqual([changed.body.lastVersion]);
    const content = await s.request('GET', `${base()}/changing/versions/latest/content`);
    expect(content.body.filesystem.files['openapi.yaml'].paths['/pets'].post.operationId).toBe('createPet');

    fixture.files.set('/api/schemas/pet.yaml', `${PET_SCHEMA}  age: { type: integer }\n`);
    s.clock.advance(1000);
    await s.request('PUT', `${base()}/changing`, { body: { source: { url } } });
    const third = await processed('changing');
    fixture.files.set('/api/schemas/pet.yaml', PET_SCHEMA);
    expect((await s.request('GET', `${base()}/changing/versions`)).body.items.map((v: { id: string }) => v.id)).toEqual([
      first.body.lastVersion,
      changed.body.lastVersion,
      third.body.lastVersion,
    ]);
  });

  it('records FETCH_TIMEOUT, FETCH_ERROR and PARSE_ERROR, and a later good processing clears them', async () => {
    // The fixture never answers the slow file: the (shortened) timeout ends its fetch. Shortened for
    // this spec only, so a fetch answered at once is never cut by a loaded machine's pauses.
    OPENAPI_LIMITS.timeoutMs = 1_000;
    await s.request('POST', base(), { body: { slug: 'slow', source: { url: `${fixture.url}/api/slow.yaml` } } });
    const slow = await processed('slow');
    OPENAPI_LIMITS.timeoutMs = timeout;
    expectSpec(slow, 'GET', SPEC, 200);
    expect(slow.body).toMatchObject({ lastProcessErrorCode: 'FETCH_TIMEOUT', lastProcessedErrorCount: 1 });
    expect(slow.body.lastVersion).toBeUndefined();
    expectError(await s.request('GET', `${base()}/slow/versions/latest`), 404, /no version/);

    await s.request('POST', base(), { body: { slug: 'gone', source: { url: `${fixture.url}/api/missing.yaml` } } });
    const gone = await processed('gone');
    expect(gone.body.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(gone.body.lastProcessedErrors[0].message).toMatch(/404/);

    await s.request('POST', base(), { body: { slug: 'invalid', source: { url: `${fixture.url}/api/invalid.yaml` } } });
    const invalid = await processed('invalid');
    expectSpec(invalid, 'GET', SPEC, 200);
    expect(invalid.body.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(invalid.body.lastProcessedErrors[0].message).toMatch(/version/);

    fixture.files.set(
      '/api/foreign.yaml',
      PETS_V1.replace('schemas/pet.yaml', `${fixture.url.replace('127.0.0.1', 'localhost')}/api/schemas/pet.yaml`),
    );
    await s.request('POST', base(), { body: { slug: 'foreign', source: { url: `${fixture.url}/api/foreign.yaml` } } });
    const foreign = await processed('foreign');
    expect(foreign.body.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(foreign.body.lastProcessedErrors[0].message).toMatch(/only name files of the spec's origin/);

    // A good source replaces the error.
    await s.request('PUT', `${base()}/invalid`, { body: { source: { url: `${fixture.url}/api/openapi.yaml` } } });
    const fixed = await processed('invalid');
    expect(fixed.body.lastProcessErrorCode).toBeUndefined();
    expect(fixed.body.lastProcessedErrorCount).toBe(0);
    expect(fixed.body.lastVersion).toEqual(expect.any(String));
  });

  it('refuses loopback URLs unless the server allows private fetches', async () => {
    const strict = await startServer(dialect);
    try {
      const made = await strict.request('POST', `/v1/orgs/${strict.orgId}/openapi`, {
        body: { slug: 'local', source: { url: `${fixture.url}/api/openapi.yaml` } },
      });
      expect(made.status).toBe(201);
      const spec = await processed('local', strict.orgId, strict.token, strict);
      expect(spec.body.lastProcessErrorCode).toBe('FETCH_ERROR');
      expect(spec.body.lastProcessedErrors[0].message).toMatch(/loopback/);
    } finally {
      await strict.close();
    }
  });

  it('processes a spec given as text at once, and answers 400 naming what is wrong in the document', async () => {
    const json = JSON.stringify({
      swagger: '2.0',
      info: { title: 'Old', version: '1' },
      paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } },
    });
    const made = await s.request('POST', base(), { body: { slug: 'swagger-two', source: { text: json } } });
    expectSpec(made, 'POST', '/orgs/{organizationId}/openapi', 201);
    expect(made.body).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String) });
    expect(made.body.sourceURL).toBeUndefined();
    const version = await s.request('GET', `${base()}/swagger-two/versions/latest`);
    expect(version.body.url).toBe(`${s.url}/v1/orgs/${s.orgId}/openapi/swagger-two/versions/${made.body.lastVersion}/content`);
    const content = await s.request('GET', `${base()}/swagger-two/versions/latest/content`);
    expect(content.body.filesystem.files.openapi.swagger).toBe('2.0');

    const v31 = 'openapi: 3.1.0\ninfo: {title: New, version: "2"}\npaths: {}\n';
    expect((await s.request('POST', base(), { body: { slug: 'three-one', source: { text: v31 } } })).status).toBe(201);

    expectError(
      await s.request('POST', base(), { body: { slug: 'bad', source: { text: INVALID_SPEC } } }),
      400,
      /body\.source\.text: .*version/,
    );
    expectError(
      await s.request('POST', base(), { body: { slug: 'bad', source: { text: 'just words' } } }),
      400,
      /body\.source\.text: the document is not/,
    );
    const withRef =
      'openapi: 3.0.3\ninfo: {title: R, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {$ref: "other.yaml"}\n';
    expectError(await s.request('POST', base(), { body: { slug: 'bad', source: { text: withRef } } }), 400, /cannot \$ref other files/);
    expectError(await s.request('GET', `${base()}/bad`), 404);
  });

  it('checks slugs, sources, duplicates, roles; deletes (205)', async () => {
    const post = (body: unknown, token = s.token) => s.request('POST', base(), { body, token });
    const text = PETS_V1.replace('items: { $ref: "schemas/pet.yaml" }', 'items: { type: string }');
    expectError(await post({ slug: 'Upper', source: { text } }), 400, /body\.slug/);
    expectError(await post({ slug: 'a--b', source: { text } }), 400, /body\.slug/);
    expectError(await post({ slug: 'x'.repeat(101), source: { text } }), 400, /body\.slug/);
    expectError(await post({ source: { text } }), 400, /slug/);
    expectError(await post({ slug: 'nosource' }), 400, /source/);
    expectError(await post({ slug: 'badurl', source: { url: 'not a url' } }), 400, /body\.source/);
    expectError(await post({ slug: 'longurl', source: { url: `https://example.com/${'a'.repeat(2048)}` } }), 400, /body\.source/);
    expectError(await post({ slug: 'empty', source: { text: '' } }), 400, /body\.source/);
    expectError(await s.request('PUT', `${base()}/Bad_Slug`, { body: { source: { text } } }), 400, /path\.specSlug/);
    expect((await post({ slug: 'x'.repeat(100), source: { text } })).status).toBe(201);
    expect((await post({ slug: 'dup', source: { text } })).status).toBe(201);
    expectError(await post({ slug: 'dup', source: { text } }), 409, /dup/);

    const editor = await s.user({ org: s.orgId, role: 'edit' });
    const creator = await s.user({ org: s.orgId, role: 'create' });
    const guest = await s.user({ org: s.orgId, role: null });
    const stranger = await s.user();
    const read = await s.request('GET', `${base()}/dup`, { token: editor.token });
    expectSpec(read, 'GET', SPEC, 200);
    expect(read.body.permissions).toEqual({ view: true, edit: false });
    expectError(await post({ slug: 'mine', source: { text } }, editor.token), 403);
    expectError(await s.request('PUT', `${base()}/dup`, { body: { source: { text } }, token: editor.token }), 403);
    expectError(await s.request('DELETE', `${base()}/dup`, { token: editor.token }), 403);
    expectError(await s.request('GET', `${base()}/dup`, { token: guest.token }), 403);
    expectError(await s.request('GET', base(), { token: stranger.token }), 404);
    expect((await post({ slug: 'mine', source: { text } }, creator.token)).status).toBe(201);

    const list = await s.request('GET', `${base()}?limit=2`, { token: editor.token });
    expectSpec(list, 'GET', '/orgs/{organizationId}/openapi', 200);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.next.page).toEqual(expect.any(String));

    const del = await s.request('DELETE', `${base()}/dup`);
    expect(del.status).toBe(205);
    expect(del.body).toBeUndefined();
    expectError(await s.request('GET', `${base()}/dup`), 404);
    expectError(await s.request('GET', `${base()}/dup/versions`), 404);
    expectError(await s.request('DELETE', `${base()}/dup`), 404);
    expectError(await s.request('GET', `${base()}/mine/versions/unknown`), 404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { expectSchema } from '../helpers/expect-schema.js';
import { ListOf, TRANSLATION_LANGUAGES, TranslationSettings } from '../../src/model/index.js';

/**
 * The published spec has no `translation-settings` (its `translation` is another resource,
 * api-gaps 2.2): answers are checked against the seed's resource as our schema states it.
 */
const expectSeedShape = (res: { status: number; body: unknown }, status: number, list = false) =>
  expectSchema(res, status, list ? ListOf(TranslationSettings) : TranslationSettings);

describe.each(testDialects())('translation settings (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });
  const base = () => `/v1/orgs/${s.orgId}/translations`;

  it('creates (201), lists, reads, replaces (PUT) and deletes (205)', async () => {
    const made = await s.request('POST', base(), { body: { title: 'Docs in French', languages: ['fr', 'fr-CA'] } });
    expectSeedShape(made, 201);
    expect(made.body).toMatchObject({
      object: 'translation-settings',
      title: 'Docs in French',
      languages: ['fr', 'fr-CA'],
      permissions: { view: true, edit: true },
    });
    expect(made.body.createdAt).toBe(made.body.updatedAt);
    expect(made.headers.get('location')).toBe(`${s.url}${base()}/${made.body.id}`);
    expect(made.body.urls.location).toBe(`${s.url}${base()}/${made.body.id}`);
    const bare = await s.request('POST', base(), { body: { title: 'No languages yet' } });
    expectSeedShape(bare, 201);
    expect(bare.body.languages).toEqual([]);

    const list = await s.request('GET', `${base()}?limit=1`);
    expectSeedShape(list, 200, true);
    expect(list.body.items.map((t: { id: string }) => t.id)).toEqual([made.body.id]);
    const rest = await s.request('GET', `${base()}?limit=1&page=${list.body.next.page}`);
    expect(rest.body.items.map((t: { id: string }) => t.id)).toEqual([bare.body.id]);
    expect(rest.body.next).toBeUndefined();

    expectSeedShape(await s.request('GET', `${base()}/${made.body.id}`), 200);
    s.clock.advance(1000);
    const put = await s.request('PUT', `${base()}/${made.body.id}`, { body: { title: 'French' } });
    expectSeedShape(put, 200);
    expect(put.body).toMatchObject({ title: 'French', languages: ['fr', 'fr-CA'], createdAt: made.body.createdAt });
    expect(Date.parse(put.body.updatedAt)).toBeGreaterThan(Date.parse(made.body.updatedAt));
    const relang = await s.request('PUT', `${base()}/${made.body.id}`, { body: { title: 'All', languages: [...TRANSLATION_LANGUAGES] } });
    expect(relang.body.languages).toEqual([...TRANSLATION_LANGUAGES]);

    const del = await s.request('DELETE', `${base()}/${made.body.id}`);
    expect(del.status).toBe(205);
    expect(del.body).toBeUndefined();
    expectError(await s.request('GET', `${base()}/${made.body.id}`), 404);
    expectError(await s.request('PUT', `${base()}/${made.body.id}`, { body: { title: 'x' } }), 404);
    expectError(await s.request('DELETE', `${base()}/${made.body.id}`), 404);
  });

  it('validates titles and BCP 47 languages, naming the field', async () => {
    const post = (body: unknown) => s.request('POST', base(), { body });
    expectError(await post({}), 400, /title/);
    expectError(await post({ title: '' }), 400, /body\.title/);
    expectError(await post({ title: 't'.repeat(101) }), 400, /body\.title/);
    expect((await post({ title: 't'.repeat(100) })).status).toBe(201);
    expectError(await post({ title: 5 }), 400, /body\.title/);
    expectError(await post({ title: 'x', languages: ['en', 'not a tag'] }), 400, /body\.languages\.1: "not a tag" is not a BCP 47/);
    expectError(await post({ title: 'x', languages: ['english'] }), 400, /body\.languages\.0: "english" .*not a known language/);
    expectError(await post({ title: 'x', languages: ['x-private'] }), 400, /body\.languages\.0/);
    expectError(await post({ title: 'x', languages: ['en-'] }), 400, /body\.languages\.0/);
    expectError(await post({ title: 'x', languages: ['pt-BR', 'pt-br'] }), 400, /body\.languages\.1: "pt-br" is listed twice/);
    expectError(await post({ title: 'x', languages: 'en' }), 400, /body\.languages/);
    expectError(await post({ title: 'x', other: 1 }), 400, /other/);
    expect((await post({ title: 'x', languages: ['zh-Hant-TW', 'sr-Latn', 'yue', 'de-CH-1996'] })).status).toBe(201);
    const some = (await s.request('GET', base())).body.items[0].id;
    expectError(await s.request('PUT', `${base()}/${some}`, { body: { languages: ['fr'] } }), 400, /title/);
    expectError(await s.request('PUT', `${base()}/${some}`, { body: { title: 'x', languages: ['??'] } }), 400, /body\.languages\.0/);
  });

  it('members with a role read; create and above write; others are refused', async () => {
    const made = await s.request('POST', base(), { body: { title: 'Roles' } });
    const editor = await s.user({ org: s.orgId, role: 'edit' });
    const creator = await s.user({ org: s.orgId, role: 'create' });
    const guest = await s.user({ org: s.orgId, role: null });
    const stranger = await s.user();
    const read = await s.request('GET', `${base()}/${made.body.id}`, { token: editor.token });
    expect(read.body.permissions).toEqual({ view: true, edit: false });
    expectError(await s.request('POST', base(), { body: { title: 'x' }, token: editor.token }), 403);
    expectError(await s.request('PUT', `${base()}/${made.body.id}`, { body: { title: 'x' }, token: editor.token }), 403);
    expectError(await s.request('DELETE', `${base()}/${made.body.id}`, { token: editor.token }), 403);
    expectError(await s.request('GET', base(), { token: guest.token }), 403);
    expectError(await s.request('GET', base(), { token: stranger.token }), 404);
    const other = await s.organization();
    expectError(await s.request('GET', `/v1/orgs/${other.id}/translations/${made.body.id}`, { token: other.adminToken }), 404);
    expect(
      (await s.request('PUT', `${base()}/${made.body.id}`, { body: { title: 'Mine' }, token: creator.token })).body.permissions,
    ).toEqual({ view: true, edit: true });
  });
});

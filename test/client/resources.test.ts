import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, collect, createClient, createdRefs, planBatches, type Client } from '../../src/client/index.js';
import type { ContentChange } from '../../src/model/index.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';

describe.each(testDialects())('client resources against the real server (%s)', (dialect) => {
  let s: TestServer;
  let client: Client;
  beforeAll(async () => {
    s = await startServer(dialect);
    client = createClient({ baseUrl: `${s.url}/v1`, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  /** An empty space with one change request holding `changes`. */
  async function spaceWith(changes: ContentChange[], title = 'Docs') {
    const space = await client.spaces.create(s.orgId, { title, empty: true });
    const cr = await client.changeRequests.create(space.id, { subject: 'seed' });
    const written = await client.content.write(space.id, cr.id, changes);
    return { space, cr, written };
  }

  it('reads the user and lists organizations', async () => {
    const user = await client.user.get();
    expect(user.object).toBe('user');
    const orgs = await collect(client.orgs.list());
    expect(orgs.map((o) => o.id)).toContain(s.orgId);
  });

  it('creates (empty), gets and lists spaces', async () => {
    const space = await client.spaces.create(s.orgId, { title: 'Handbook', empty: true });
    expect(space.title).toBe('Handbook');
    expect((await client.spaces.get(space.id)).id).toBe(space.id);
    expect(await client.content.pages({ space: space.id })).toEqual([]);
    const listed = await collect(client.spaces.list(s.orgId));
    expect(listed.map((x) => x.id)).toContain(space.id);
  });

  it('surfaces a 404 with the server message, not retried', async () => {
    const before = client.stats.requests;
    const error = (await client.spaces.get('nope').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.message).toBe('space nope not found');
    expect(client.stats.requests - before).toBe(1);
  });

  it('opens, reads by id and number, lists by status and patches change requests', async () => {
    const space = await client.spaces.create(s.orgId, { title: 'CRs', empty: true });
    const a = await client.changeRequests.create(space.id, { subject: 'First' });
    const b = await client.changeRequests.create(space.id, { subject: 'Second' });
    expect((await client.changeRequests.get(space.id, a.id)).subject).toBe('First');
    expect((await client.changeRequests.get(space.id, b.number)).id).toBe(b.id);
    const patched = await client.changeRequests.patch(space.id, b.id, { status: 'archived', subject: 'Second, archived' });
    expect(patched.status).toBe('archived');
    expect((await collect(client.changeRequests.list(space.id))).map((c) => c.id)).toEqual([a.id]);
    expect((await collect(client.changeRequests.list(space.id, { status: 'archived' }))).map((c) => c.subject)).toEqual([
      'Second, archived',
    ]);
  });

  it('writes a batch (compat=false), reads it back as markdown, merges it and reads revisions', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const { space, cr, written } = await spaceWith([
      { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', contentType: 'image/png', base64: png.toString('base64') }] },
      { operation: 'insert_page', ref: 'intro', document: { markdown: '# Introduction\n\nHello ![logo](./logo)\n' } },
      { operation: 'insert_page', document: { markdown: '# Guide\n\nRead [the intro](./intro.md).\n' } },
    ]);
    expect(written.changes?.map((c) => c.object)).toEqual(['created_page', 'created_page']);
    expect(written.insertedFiles.map((f) => f.name)).toEqual(['logo.png']);
    const created = createdRefs(
      [
        { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', contentType: 'image/png', base64: '' }] },
        { operation: 'insert_page', ref: 'intro', document: {} },
      ],
      written,
    );
    expect(created.get('logo')).toEqual({ kind: 'file', id: written.insertedFiles[0]!.id });

    const scope = { space: space.id, changeRequest: cr.id };
    const pages = await client.content.pages(scope, { markdown: true });
    expect(pages.map((p) => [p.title, p.markdown])).toEqual([
      ['Introduction', 'Hello ![logo](.gitbook/assets/logo.png)\n'],
      ['Guide', 'Read [the intro](README.md).\n'], // the first page is README.md
    ]);
    expect(client.capabilities.markdownListing).toBe(true);
    const one = await client.content.page(scope, pages[1]!.id, { format: 'markdown' });
    expect(one.markdown).toBe(pages[1]!.markdown);

    const files = await collect(client.content.files(scope));
    expect(files.map((f) => f.name)).toEqual(['logo.png']);
    expect(Buffer.from(await client.content.download(files[0]!))).toEqual(png);
    expect((await client.content.file(scope, files[0]!.id)).size).toBe(png.length);

    const merged = await client.changeRequests.merge(space.id, cr.id);
    expect(merged.result).toBe('merge');
    const live = await client.content.revision({ space: space.id });
    expect(live.id).toBe(merged.revision);
    expect((await client.revisions.get({ space: space.id, revision: merged.revision })).type).toBe('merge');
    expect((await client.content.pages({ space: space.id, revision: merged.revision })).map((p) => p.title)).toEqual([
      'Introduction',
      'Guide',
    ]);
  });

  it('surfaces a merge conflict as a 409, and updates a change request from main', async () => {
    const { space, cr: base } = await spaceWith([{ operation: 'insert_page', document: { markdown: '# Page\n\none\n' } }]);
    await client.changeRequests.merge(space.id, base.id);
    const [pageId] = (await client.content.pages({ space: space.id })).map((p) => p.id);
    const a = await client.changeRequests.create(space.id, { subject: 'A' });
    const b = await client.changeRequests.create(space.id, { subject: 'B' });
    await client.content.write(space.id, a.id, [{ operation: 'update_page', page: pageId!, document: { markdown: '# Page\n\ntwo\n' } }]);
    await client.content.write(space.id, b.id, [{ operation: 'update_page', page: pageId!, document: { markdown: '# Page\n\nthree\n' } }]);
    await client.changeRequests.merge(space.id, a.id);
    const conflict = (await client.changeRequests.merge(space.id, b.id).catch((e: unknown) => e)) as ApiError;
    expect(conflict).toBeInstanceOf(ApiError);
    expect(conflict.status).toBe(409);
    const c = await client.changeRequests.create(space.id, { subject: 'C' });
    await client.changeRequests.merge(space.id, (await client.changeRequests.create(space.id, { subject: 'D' })).id);
    const updated = await client.changeRequests.update(space.id, c.id);
    expect(updated.result).toBe('update');
  });

  it('sends a 120-change push as planned batches of at most 50', async () => {
    const space = await client.spaces.create(s.orgId, { title: 'Big', empty: true });
    const cr = await client.changeRequests.create(space.id);
    const changes: ContentChange[] = Array.from({ length: 120 }, (_, i) => ({
      operation: 'insert_page',
      title: `P${i}`,
      document: { markdown: `page ${i}\n` },
    }));
    const { batches } = planBatches(changes);
    for (const batch of batches) await client.content.write(space.id, cr.id, batch);
    expect(batches.map((b) => b.length)).toEqual([50, 50, 20]);
    expect((await client.content.pages({ space: space.id, changeRequest: cr.id })).map((p) => p.title)).toEqual(
      changes.map((_, i) => `P${i}`),
    );
  });
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { readTree } from '../helpers/content.js';

const WRITE = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';
const IN_SPACE = '/spaces/{spaceId}/content/reusable-contents/{reusableContentId}';
const IN_CR = '/spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}';
const IN_REVISION = '/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}';
const DOCUMENT = '/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document';

const gitOid = (text: string) =>
  createHash('sha1')
    .update(`blob ${Buffer.byteLength(text)}\0`)
    .update(text)
    .digest('hex');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The extensions for reusable content (docs/api.md, "Reusable contents"): batch operations and reads. */
describe.each(testDialects())('reusable contents: batch operations and reads (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function setup() {
    const space = await createSpace(s, { title: 'Docs' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Includes' } });
    expect(cr.status).toBe(201);
    return { spaceId: space.id as string, crId: cr.body.id as string };
  }
  type Target = Awaited<ReturnType<typeof setup>>;
  const write = (t: Target, changes: unknown[], crId = t.crId) =>
    s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${crId}/content?compat=false`, { body: { changes } });
  const inCr = (t: Target, id: string, query = '') =>
    s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content/reusable-contents/${id}${query}`);
  const insert = (title: string, markdown: string, extra: Record<string, unknown> = {}) => ({
    operation: 'insert_reusable_content',
    title,
    document: { markdown },
    ...extra,
  });

  it('insert_reusable_content answers what it made; the three reads give it back within the spec, with markdown on request', async () => {
    const t = await setup();
    const res = await write(t, [
      insert('Warning', 'Do **not** run this twice.\n', { ref: 'w' }),
      insert('Hand named', 'Body.\n', { name: 'Custom File.md' }),
    ]);
    expectSpec(res, 'POST', WRITE, 200);
    expect(res.body.changes).toEqual([]);
    const [warning, custom] = res.body.insertedReusableContents;
    const body = 'Do **not** run this twice.\n';
    expect(warning).toEqual({
      id: expect.any(String),
      title: 'Warning',
      document: sha256(body),
      git: { oid: gitOid(body), path: '.gitbook/includes/warning.md' },
    });
    expect(custom.git.path).toBe('.gitbook/includes/Custom File.md');

    const plain = await inCr(t, warning.id);
    expectSpec(plain, 'GET', IN_CR, 200);
    expect(plain.body).toEqual(warning);
    const md = await inCr(t, warning.id, '?format=markdown');
    expectSpec(md, 'GET', IN_CR, 200);
    expect(md.body).toEqual({ ...warning, markdown: body });
    const bare = await inCr(t, warning.id, '?metadata=false&computed=false&format=markdown');
    expectSpec(bare, 'GET', IN_CR, 200);
    expect(bare.body).toEqual({ id: warning.id, title: 'Warning', document: sha256(body), markdown: body });

    const revision = res.body.changeRequest.revision as string;
    const byRevision = await s.request(
      'GET',
      `/v1/spaces/${t.spaceId}/revisions/${revision}/reusable-contents/${warning.id}?format=markdown`,
    );
    expectSpec(byRevision, 'GET', IN_REVISION, 200);
    expect(byRevision.body).toEqual(md.body);
    const document = await s.request(
      'GET',
      `/v1/spaces/${t.spaceId}/revisions/${revision}/reusable-contents/${warning.id}/document?evaluated=true&dereferenced=reusable-contents`,
    );
    expectSpec(document, 'GET', DOCUMENT, 200);
    expect(document.body.object).toBe('document');
    expect(JSON.stringify(document.body)).toContain('twice.');

    // The revision lists them; main has none until the change request is merged.
    const content = await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content`);
    expect(content.body.reusableContents.map((c: { id: string }) => c.id)).toEqual([warning.id, custom.id]);
    expectError(
      await s.request('GET', `/v1/spaces/${t.spaceId}/content/reusable-contents/${warning.id}`),
      404,
      `reusable content ${warning.id} not found`,
    );
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/merge`)).status).toBe(200);
    const live = await s.request('GET', `/v1/spaces/${t.spaceId}/content/reusable-contents/${custom.id}?format=markdown`);
    expectSpec(live, 'GET', IN_SPACE, 200);
    expect(live.body).toMatchObject({ title: 'Hand named', markdown: 'Body.\n', git: { path: '.gitbook/includes/Custom File.md' } });
  });

  it('an empty reusable content has no document: markdown "", the empty blob, an empty JSON document', async () => {
    const t = await setup();
    const res = await write(t, [insert('Empty', '')]);
    const [empty] = res.body.insertedReusableContents;
    expect(empty).toEqual({
      id: expect.any(String),
      title: 'Empty',
      git: { oid: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391', path: '.gitbook/includes/empty.md' },
    });
    expect((await inCr(t, empty.id, '?format=markdown')).body.markdown).toBe('');
    const document = await s.request(
      'GET',
      `/v1/spaces/${t.spaceId}/revisions/${res.body.changeRequest.revision}/reusable-contents/${empty.id}/document`,
    );
    expectSpec(document, 'GET', DOCUMENT, 200);
    expect(document.body).toEqual({ object: 'document', data: {}, nodes: [] });
  });

  it('update_reusable_content changes title and body and keeps the file; delete_reusable_content removes it', async () => {
    const t = await setup();
    const [made] = (await write(t, [insert('Note', 'One.\n')])).body.insertedReusableContents;
    const updated = await write(t, [
      { operation: 'update_reusable_content', reusableContent: made.id, title: 'Caution', document: { markdown: 'Two.' } },
    ]);
    expectSpec(updated, 'POST', WRITE, 200);
    expect(updated.body).not.toHaveProperty('insertedReusableContents');
    expect((await inCr(t, made.id, '?format=markdown')).body).toMatchObject({
      title: 'Caution',
      markdown: 'Two.\n',
      git: { path: '.gitbook/includes/note.md' },
    });
    expectSpec(await write(t, [{ operation: 'delete_reusable_content', reusableContent: made.id }]), 'POST', WRITE, 200);
    expectError(await inCr(t, made.id), 404, `reusable content ${made.id} not found`);
    expect((await readTree(s, { spaceId: t.spaceId, changeRequestId: t.crId })).reusableContents).toEqual([]);
  });

  it('bad changes are a 400 naming the change and the field (409 for a taken file), leaving no trace', async () => {
    const t = await setup();
    const [made] = (await write(t, [insert('Note', 'One.\n')])).body.insertedReusableContents;
    const head = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}`)).body.revision;
    const cases: [unknown[], number, string | RegExp][] = [
      [
        [{ operation: 'update_reusable_content', reusableContent: 'nope', title: 'X' }],
        400,
        'changes[0]: reusableContent: reusable content nope not found',
      ],
      [
        [insert('A', 'a'), { operation: 'delete_reusable_content', reusableContent: 'nope' }],
        400,
        'changes[1]: reusableContent: reusable content nope not found',
      ],
      [[insert(' ', 'a')], 400, 'changes[0]: title: must not be blank'],
      [[insert('A', 'a', { name: 'a.txt' })], 400, 'changes[0]: name: "a.txt" must be a file name ending in `.md`'],
      [[insert('A', 'a', { name: 'note.md' })], 409, `changes[0]: name: "note.md" is already the file of reusable content ${made.id}`],
      [[{ operation: 'insert_reusable_content', document: { markdown: 'x' } }], 400, /body\.changes\.0 .*title/],
      [
        [{ operation: 'insert_reusable_content', title: '', document: { markdown: 'x' } }],
        400,
        'body.changes.0.title must be at least 1 characters',
      ],
      [
        [{ operation: 'insert_reusable_content', title: 'T', document: { markdown: 'x' }, slug: 'x' }],
        400,
        'body.changes.0 has an unknown field `slug`',
      ],
      [[{ operation: 'update_reusable_content', title: 'T' }], 400, /body\.changes\.0 .*reusableContent/],
      [
        [{ operation: 'delete_reusable_content', reusableContent: '' }],
        400,
        'body.changes.0.reusableContent must be at least 1 characters',
      ],
    ];
    for (const [changes, status, message] of cases) expectError(await write(t, changes), status, message);
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}`)).body.revision).toBe(head);
    expectError(await inCr(t, made.id, '?format=document'), 400, /format/);
    expectError(await inCr(t, made.id, '?colour=red'), 400, /colour/);
    expectError(
      await s.request('GET', `/v1/spaces/${t.spaceId}/revisions/${head}/reusable-contents/nope/document`),
      404,
      'reusable content nope not found',
    );
  });

  it('reads need read on the space (a non-member and a guest get 404); writes need edit', async () => {
    const t = await setup();
    const res = await write(t, [insert('Note', 'One.\n')]);
    const [made] = res.body.insertedReusableContents;
    const revision = res.body.changeRequest.revision;
    const reader = await s.user({ org: s.orgId, role: 'read' });
    expectSpec(
      await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content/reusable-contents/${made.id}`, {
        token: reader.token,
      }),
      'GET',
      IN_CR,
      200,
    );
    expectError(
      await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content`, {
        token: reader.token,
        body: { changes: [insert('X', 'x')] },
      }),
      403,
    );
    const stranger = await s.user();
    const guest = await s.user({ org: s.orgId, role: null });
    for (const token of [stranger.token, guest.token]) {
      for (const path of [
        `/change-requests/${t.crId}/content/reusable-contents/${made.id}`,
        `/revisions/${revision}/reusable-contents/${made.id}`,
        `/revisions/${revision}/reusable-contents/${made.id}/document`,
        `/content/reusable-contents/${made.id}`,
      ]) {
        expectError(await s.request('GET', `/v1/spaces/${t.spaceId}${path}`, { token }), 404, new RegExp(`space ${t.spaceId}`));
      }
    }
  });

  it('merging change requests merges reusable contents: bodies line by line, a clash of lines is a 409 naming the content', async () => {
    const t = await setup();
    const [made] = (await write(t, [insert('Steps', 'one\ntwo\nthree\n')])).body.insertedReusableContents;
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/merge`)).status).toBe(200);
    const open = async () =>
      (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'Edit' } })).body.id as string;
    const [first, second, third] = [await open(), await open(), await open()];
    const edit = (markdown: string) => [{ operation: 'update_reusable_content', reusableContent: made.id, document: { markdown } }];
    expect((await write(t, edit('ONE\ntwo\nthree\n'), first)).status).toBe(200);
    expect((await write(t, edit('one\ntwo\nTHREE\n'), second)).status).toBe(200);
    expect((await write(t, edit('one\ntwo\n3\n'), third)).status).toBe(200);
    for (const id of [first, second])
      expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${id}/merge`)).status).toBe(200);
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}/content/reusable-contents/${made.id}?format=markdown`)).body.markdown).toBe(
      'ONE\ntwo\nTHREE\n',
    );
    expectError(
      await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${third}/merge`),
      409,
      `reusable content "Steps" (${made.id}): both sides changed its document`,
    );
  });
});

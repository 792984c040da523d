import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { readTree } from '../helpers/content.js';

const SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The docsync extensions for what a Git Sync folder holds besides pages: variables and files. */
describe.each(testDialects())('content batch: set_variables, files replaced by name, delete_file (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function openChangeRequest(spaceId: string) {
    const cr = await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Edits' } });
    expect(cr.status).toBe(201);
    return cr.body.id as string;
  }
  async function setup() {
    const space = await createSpace(s, { title: 'Docs' });
    return { spaceId: space.id as string, crId: await openChangeRequest(space.id) };
  }
  type Target = Awaited<ReturnType<typeof setup>>;
  const write = (t: Target, changes: unknown[]) =>
    s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content?compat=false`, { body: { changes } });
  const headOf = async (t: Target) => (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}`)).body.revision as string;
  const content = (t: Target) => `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content`;
  const download = async (url: string) => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${s.token}` } });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const upload = (name: string, text: string, contentType = 'text/plain') => ({ name, base64: b64(text), contentType });
  const merge = (t: Target) => s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/merge`);

  it("set_variables replaces the revision's space variables; reads give them back within the spec; {} removes them", async () => {
    const t = await setup();
    const res = await write(t, [{ operation: 'set_variables', variables: { LATEST: '24.x', COUNT: 3, BETA: true } }]);
    expectSpec(res, 'POST', SPEC, 200);
    expect(res.body.changes).toEqual([]);
    const revision = await s.request('GET', content(t));
    expectSpec(revision, 'GET', SPEC, 200);
    expect(revision.body.variables).toEqual({ BETA: true, COUNT: 3, LATEST: '24.x' });

    expectSpec(await write(t, [{ operation: 'set_variables', variables: { LATEST: '25.x' } }]), 'POST', SPEC, 200);
    expect((await readTree(s, { spaceId: t.spaceId, changeRequestId: t.crId })).variables).toEqual({ LATEST: '25.x' });
    expectSpec(await write(t, [{ operation: 'set_variables', variables: {} }]), 'POST', SPEC, 200);
    expect((await s.request('GET', content(t))).body.variables).toEqual({});
  });

  it('set_variables refuses bad names and values with a 400 naming the change and the variable, leaving no trace', async () => {
    const t = await setup();
    const head = await headOf(t);
    const set = (variables: unknown) => [{ operation: 'set_variables', variables }];
    const cases: [unknown[], string | RegExp][] = [
      [set({ 'my-var': 'x' }), 'changes[0]: variables: name "my-var" must start with a letter and hold only letters, digits and `_`'],
      [set({ '2nd': 'x' }), 'changes[0]: variables: name "2nd" must start with a letter'],
      [set({ [`v${'x'.repeat(100)}`]: 1 }), /changes\[0\]: variables: name "vx+" is longer than 100 characters/],
      [set({ LIST: [1, 2] }), 'body.changes.0.variables.LIST must be a string,number,boolean'],
      [set({ NOTHING: null }), 'body.changes.0.variables.NOTHING must be a string,number,boolean'],
      [set({ LONG: 'x'.repeat(257) }), 'body.changes.0.variables.LONG must be at most 256 characters'],
      [
        set(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`V${i}`, i]))),
        /body\.changes\.0\.variables must NOT have more than 1000 properties/,
      ],
      [[{ operation: 'set_variables' }], /body\.changes\.0 .*variables/],
      [[{ operation: 'set_variables', variables: {}, scope: 'page' }], 'body.changes.0 has an unknown field `scope`'],
    ];
    for (const [changes, message] of cases) {
      const res = await write(t, changes);
      expectError(res, 400);
      if (typeof message === 'string') expect(res.body.error.message).toContain(message);
      else expect(res.body.error.message).toMatch(message);
    }
    // A number JSON cannot hold (1e400 parses as Infinity) is refused, not stored as null.
    const raw = await s.request('POST', `${content(t)}?compat=false`, {
      raw: '{"changes":[{"operation":"set_variables","variables":{"BIG":1e400}}]}',
    });
    expectError(raw, 400, 'changes[0]: variables: BIG must be a finite number');
    expect(await headOf(t)).toBe(head);
  });

  it("insert_files with an existing file's name replaces its bytes and content type and keeps its id; older revisions keep the old bytes", async () => {
    const t = await setup();
    const first = await write(t, [
      { operation: 'insert_files', files: [upload('logo.svg', '<svg>old</svg>', 'image/svg+xml'), upload('notes.txt', 'notes')] },
    ]);
    expectSpec(first, 'POST', SPEC, 200);
    const [logo, notes] = first.body.insertedFiles as { id: string; downloadURL: string }[];
    const page = await write(t, [{ operation: 'insert_page', title: 'Brand', document: { markdown: `![logo](/files/${logo!.id})\n` } }]);
    expectSpec(page, 'POST', SPEC, 200);

    const res = await write(t, [
      { operation: 'insert_files', files: [upload('logo.svg', 'PNG bytes', 'image/png'), upload('new.txt', 'new')] },
    ]);
    expectSpec(res, 'POST', SPEC, 200);
    expect(res.body.insertedFiles).toEqual([
      expect.objectContaining({
        id: logo!.id,
        name: 'logo.svg',
        contentType: 'image/png',
        size: 9,
        git: expect.objectContaining({ path: '.gitbook/assets/logo.svg' }),
      }),
      expect.objectContaining({ name: 'new.txt', contentType: 'text/plain', size: 3 }),
    ]);
    expect(res.body.insertedFiles[1].id).not.toBe(logo!.id);

    const files = await s.request('GET', `${content(t)}/files`);
    expectSpec(files, 'GET', `${SPEC}/files`, 200);
    expect((files.body.items as { name: string }[]).map((f) => f.name).sort()).toEqual(['logo.svg', 'new.txt', 'notes.txt']);
    const one = await s.request('GET', `${content(t)}/files/${logo!.id}`);
    expectSpec(one, 'GET', `${SPEC}/files/{fileId}`, 200);
    expect(one.body).toMatchObject({ id: logo!.id, contentType: 'image/png', size: 9 });
    expect(await download(one.body.downloadURL)).toEqual({ status: 200, type: 'image/png', text: 'PNG bytes' });
    // The download URL handed out before names the old revision, which keeps the old bytes.
    expect(await download(logo!.downloadURL)).toEqual({ status: 200, type: 'image/svg+xml', text: '<svg>old</svg>' });
    expect(notes!.id).toBe((files.body.items as { id: string; name: string }[]).find((f) => f.name === 'notes.txt')!.id);

    // The page that refers to the file still reaches it.
    const backlinks = await s.request('GET', `${content(t)}/files/${logo!.id}/backlinks`);
    expect(backlinks.status).toBe(200);
    expect(backlinks.body.items.map((l: { page: { title: string } }) => l.page.title)).toEqual(['Brand']);
  });

  it('delete_file removes a file; an unknown file is a 400 naming the change, leaving no trace', async () => {
    const t = await setup();
    const inserted = await write(t, [{ operation: 'insert_files', files: [upload('a.txt', 'a'), upload('b.txt', 'b')] }]);
    const [a, bFile] = inserted.body.insertedFiles as { id: string }[];
    const res = await write(t, [{ operation: 'delete_file', file: a!.id }]);
    expectSpec(res, 'POST', SPEC, 200);
    expect(res.body.changes).toEqual([]);
    expect(res.body).not.toHaveProperty('insertedFiles');
    expect((await readTree(s, { spaceId: t.spaceId, changeRequestId: t.crId })).files.map((f) => f.id)).toEqual([bFile!.id]);
    expectError(await s.request('GET', `${content(t)}/files/${a!.id}`), 404, `file ${a!.id}`);

    const head = await headOf(t);
    expectError(
      await write(t, [
        { operation: 'delete_file', file: bFile!.id },
        { operation: 'delete_file', file: a!.id },
      ]),
      400,
      `changes[1]: file: file ${a!.id} not found`,
    );
    expectError(await write(t, [{ operation: 'delete_file', file: '' }]), 400, 'body.changes.0.file must be at least 1 characters');
    expectError(await write(t, [{ operation: 'delete_file', name: 'b.txt' }]), 400, /body\.changes\.0 /);
    expect(await headOf(t)).toBe(head);

    // Deleted, then inserted again under its name: a new file.
    const again = await write(t, [
      { operation: 'delete_file', file: bFile!.id },
      { operation: 'insert_files', files: [upload('b.txt', 'b2')] },
    ]);
    expectSpec(again, 'POST', SPEC, 200);
    expect(again.body.insertedFiles[0].id).not.toBe(bFile!.id);
  });

  it('a merge carries variables set, files replaced and files deleted to main', async () => {
    const space = await createSpace(s, { title: 'Merged' });
    const setupCr = { spaceId: space.id as string, crId: await openChangeRequest(space.id) };
    const seeded = await write(setupCr, [
      { operation: 'set_variables', variables: { LATEST: '1.0', OLD: 'x' } },
      { operation: 'insert_files', files: [upload('logo.png', 'v1', 'image/png'), upload('gone.txt', 'bye')] },
    ]);
    const [logo, gone] = seeded.body.insertedFiles as { id: string }[];
    expect((await merge(setupCr)).status).toBe(200);

    const t = { spaceId: space.id as string, crId: await openChangeRequest(space.id) };
    expectSpec(
      await write(t, [
        { operation: 'set_variables', variables: { LATEST: '2.0', NEW: true } },
        { operation: 'insert_files', files: [upload('logo.png', 'v2!', 'image/png')] },
        { operation: 'delete_file', file: gone!.id },
      ]),
      'POST',
      SPEC,
      200,
    );
    // Main moves meanwhile on other content; the merge is three-way.
    const other = { spaceId: space.id as string, crId: await openChangeRequest(space.id) };
    expect((await write(other, [{ operation: 'insert_files', files: [upload('extra.txt', 'x')] }])).status).toBe(200);
    expect((await merge(other)).status).toBe(200);

    const merged = await merge(t);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const main = await s.request('GET', `/v1/spaces/${space.id}/content`);
    expectSpec(main, 'GET', '/spaces/{spaceId}/content', 200);
    expect(main.body.variables).toEqual({ LATEST: '2.0', NEW: true });
    const files = (await readTree(s, { spaceId: space.id })).files;
    expect(files.map((f) => [f.name, f.size]).sort()).toEqual([
      ['extra.txt', 1],
      ['logo.png', 3],
    ]);
    expect(files.find((f) => f.name === 'logo.png')!.id).toBe(logo!.id);
  });

  it('a merge that would make two files of one name, or set a variable two ways, is a 409 naming them', async () => {
    const space = await createSpace(s, { title: 'Clash' });
    const one = { spaceId: space.id as string, crId: await openChangeRequest(space.id) };
    const two = { spaceId: space.id as string, crId: await openChangeRequest(space.id) };
    expect(
      (
        await write(one, [
          { operation: 'insert_files', files: [upload('logo.png', 'one')] },
          { operation: 'set_variables', variables: { V: 1 } },
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await write(two, [
          { operation: 'insert_files', files: [upload('logo.png', 'two')] },
          { operation: 'set_variables', variables: { V: 2 } },
        ])
      ).status,
    ).toBe(200);
    expect((await merge(one)).status).toBe(200);
    const res = await merge(two);
    expectError(res, 409);
    expect(res.body.error.message).toMatch(/file "logo\.png" \([^)]+\): each side added a file of this name/);
    expect(res.body.error.message).toContain('variable "V" (V): set to different values on both sides');
  });

  it('every answer names the extensions in x-docsync-extensions: success, errors, unknown routes, no token', async () => {
    const t = await setup();
    const expected =
      'page-types,link-title,set-variables,replace-files,delete-file,markdown-listing,' +
      'insert-reusable-content,update-reusable-content,delete-reusable-content,reusable-content-markdown,git-path,computed-pages,space-events,explicit-layout,front-matter,git-files,title-heading,changed-pages';
    const answers = [
      await write(t, [{ operation: 'set_variables', variables: { A: 1 } }]),
      await write(t, [{ operation: 'delete_file', file: 'nope' }]),
      await s.request('GET', '/v1/user'),
      await s.request('GET', '/v1/nowhere'),
      await s.request('GET', '/v1/user', { token: null }),
      await s.request('POST', `${content(t)}`, { raw: '{not json' }),
      await s.request('POST', `${content(t)}`, { raw: 'text', headers: { 'content-type': 'text/plain' } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 400, 200, 404, 401, 400, 415]);
    for (const answer of answers) expect(answer.headers.get('x-docsync-extensions')).toBe(expected);
  });
});

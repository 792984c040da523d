import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';

const SPEC = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';

/** Extension `git-files`: `.gitbook.yaml` and `.md` files SUMMARY.md does not list, kept as written (issue 14). */
describe.each(testDialects())('content batch: set_git_file (%s)', (dialect) => {
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
  const write = (spaceId: string, crId: string, changes: unknown[]) =>
    s.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { body: { changes } });
  const gitFiles = async (path: string) => (await s.request('GET', path)).body.gitFiles as { path: string; text: string }[] | undefined;
  const merge = (spaceId: string, crId: string) => s.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/merge`);

  const YAML = 'root: ./\n\nredirects:\n  old/page: "new/page.md"   # moved in 2023\n';
  const DRAFT = '# Draft\n\nNot listed.\n\n\n';

  it('stores texts byte for byte by path (sorted), gives them back on revision reads, replaces and removes them; the header names git-files', async () => {
    const space = await createSpace(s, { title: 'Docs' });
    const cr = await openChangeRequest(space.id);
    const res = await write(space.id, cr, [
      { operation: 'set_git_file', path: 'notes/draft.md', text: DRAFT },
      { operation: 'set_git_file', path: '.gitbook.yaml', text: YAML },
    ]);
    expectSpec(res, 'POST', SPEC, 200);
    expect(res.body.changes).toEqual([]);
    expect(res.headers.get('x-docsync-extensions')).toContain('git-files');
    const read = `/v1/spaces/${space.id}/change-requests/${cr}/content`;
    expect(await gitFiles(read)).toEqual([
      { path: '.gitbook.yaml', text: YAML },
      { path: 'notes/draft.md', text: DRAFT },
    ]);
    // A space without folder files reads without the field, as the published Revision.
    expect(await gitFiles(`/v1/spaces/${space.id}/content`)).toBeUndefined();

    await write(space.id, cr, [
      { operation: 'set_git_file', path: 'notes/draft.md', text: '' },
      { operation: 'set_git_file', path: '.gitbook.yaml', text: null },
      { operation: 'set_git_file', path: 'never-there.md', text: null },
    ]);
    expect(await gitFiles(read)).toEqual([{ path: 'notes/draft.md', text: '' }]);
    expectSpec(await merge(space.id, cr), 'POST', '/spaces/{spaceId}/change-requests/{changeRequestId}/merge', 200);
    expect(await gitFiles(`/v1/spaces/${space.id}/content`)).toEqual([{ path: 'notes/draft.md', text: '' }]);
  });

  it('refuses paths that are not folder files with a 400 naming the change, storing nothing', async () => {
    const space = await createSpace(s, { title: 'Docs' });
    const cr = await openChangeRequest(space.id);
    const head = (await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr}`)).body.revision;
    for (const [path, message] of [
      ['../up.md', /changes\[0\]: path has an empty, `\.` or `\.\.` path segment/],
      ['/abs.md', /absolute/],
      ['.gitbook/assets/x.md', /inside a `\.gitbook\/` folder/],
      ['docs/.gitbook/includes/x.md', /inside a `\.gitbook\/` folder/],
      ['notes.txt', /must be `\.gitbook\.yaml` or end in `\.md`/],
      ['a\\b.md', /backslash/],
    ] as const) {
      expectError(await write(space.id, cr, [{ operation: 'set_git_file', path, text: 'x' }]), 400, message);
    }
    expectError(await write(space.id, cr, [{ operation: 'set_git_file', path: 'a.md' }]), 400, /text/);
    expectError(
      await write(space.id, cr, [{ operation: 'set_git_file', path: 'big.md', text: 'x'.repeat(1024 * 1024 + 1) }]),
      400,
      /larger/,
    );
    expect((await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr}`)).body.revision).toBe(head);
  });

  it('merges like pages: one side takes that side, both sides merge line by line, the same lines conflict (409 naming the file)', async () => {
    const space = await createSpace(s, { title: 'Docs' });
    const base = await openChangeRequest(space.id);
    const lines = (...changed: string[]) =>
      ['# Notes', '', 'one', '', 'two', '', 'three', '']
        .map((l) => changed.find((c) => c.startsWith(`${l}:`))?.slice(l.length + 1) ?? l)
        .join('\n');
    await write(space.id, base, [
      { operation: 'set_git_file', path: 'notes.md', text: lines() },
      { operation: 'set_git_file', path: 'keep.md', text: 'keep\n' },
    ]);
    expect((await merge(space.id, base)).status).toBe(200);

    // Two change requests from that main: one edits line one and removes keep.md, the other edits line three and adds a file.
    const a = await openChangeRequest(space.id);
    const b = await openChangeRequest(space.id);
    await write(space.id, a, [
      { operation: 'set_git_file', path: 'notes.md', text: lines('one:ONE') },
      { operation: 'set_git_file', path: 'keep.md', text: null },
    ]);
    await write(space.id, b, [
      { operation: 'set_git_file', path: 'notes.md', text: lines('three:THREE') },
      { operation: 'set_git_file', path: 'added.md', text: 'added\n' },
    ]);
    expect((await merge(space.id, a)).status).toBe(200);
    expect((await merge(space.id, b)).status).toBe(200);
    expect(await gitFiles(`/v1/spaces/${space.id}/content`)).toEqual([
      { path: 'added.md', text: 'added\n' },
      { path: 'notes.md', text: lines('one:ONE', 'three:THREE') },
    ]);

    const c = await openChangeRequest(space.id);
    const d = await openChangeRequest(space.id);
    await write(space.id, c, [{ operation: 'set_git_file', path: 'notes.md', text: lines('one:Uno', 'three:THREE') }]);
    await write(space.id, d, [{ operation: 'set_git_file', path: 'notes.md', text: lines('one:Eins', 'three:THREE') }]);
    expect((await merge(space.id, c)).status).toBe(200);
    expectError(await merge(space.id, d), 409, /folder file "notes\.md" \(notes\.md\): both sides changed the same lines/);
  });
});

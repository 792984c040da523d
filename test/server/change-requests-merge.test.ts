import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentTree, TreePage } from '../../src/model/index.js';
import { getText } from '../../src/server/store/blobs.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { docPage, readTree, storeMarkdown, writeTree } from '../helpers/content.js';

const ONE = '/spaces/{spaceId}/change-requests/{changeRequestId}';
const MERGE = '/spaces/{spaceId}/change-requests/{changeRequestId}/merge';
const UPDATE = '/spaces/{spaceId}/change-requests/{changeRequestId}/update';

const ALPHA = '# Alpha\n\nline 1\nline 2\nline 3\nline 4\nline 5\n';
const BETA = '# Beta\n\nbeta text\n';

describe.each(testDialects())('change requests: merge and update (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const tree = (pages: TreePage[]): ContentTree => ({ pages, files: [], variables: {}, reusableContents: [] });
  const withDoc = async (id: string, title: string, markdown: string) => docPage(id, title, { document: await storeMarkdown(s, markdown) });
  const markdownOf = async (t: ContentTree, id: string) => getText(s.server.db.kysely, t.pages.find((p) => p.id === id)!.document!);
  const revisionCount = async () =>
    Number(
      (
        await s.server.db.kysely
          .selectFrom('revisions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A space whose main holds Alpha and Beta, and an open change request on it. */
  async function setup() {
    const space = await createSpace(s);
    await writeTree(s, { spaceId: space.id }, tree([await withDoc('alpha', 'Alpha', ALPHA), await withDoc('beta', 'Beta', BETA)]));
    const res = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Edits' } });
    expect(res.status).toBe(201);
    return { spaceId: space.id as string, cr: res.body as { id: string; number: number; revision: string } };
  }

  const getCr = async (spaceId: string, id: string) => {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${id}`);
    expectSpec(res, 'GET', ONE, 200);
    return res.body;
  };
  const spaceHead = async (spaceId: string) => (await s.request('GET', `/v1/spaces/${spaceId}`)).body.revision as string;

  it('merges into an unchanged main: main takes the CR tree, the CR is merged', async () => {
    const { spaceId, cr } = await setup();
    const before = await spaceHead(spaceId);
    const crTree = tree([
      await withDoc('alpha', 'Alpha', ALPHA),
      await withDoc('beta', 'Beta', '# Beta\n\nbetter text\n'),
      await withDoc('gamma', 'Gamma', '# Gamma\n'),
    ]);
    const crHead = await writeTree(s, { spaceId, changeRequestId: cr.id }, crTree);
    expect((await getCr(spaceId, cr.id)).outdated).toBe(false);

    const res = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.number}/merge`);
    expectSpec(res, 'POST', MERGE, 200);
    expect(res.body).toEqual({ revision: expect.any(String), result: 'merge' });
    expect(await spaceHead(spaceId)).toBe(res.body.revision);
    expect(await readTree(s, { spaceId })).toEqual(crTree);

    const merged = await getCr(spaceId, cr.id);
    expect(merged).toMatchObject({ status: 'merged', revisionMerged: res.body.revision, revision: crHead, outdated: false });
    expect(merged.mergedBy.object).toBe('user');
    expect(typeof merged.mergedAt).toBe('string');
    const row = await s.server.db.kysely.selectFrom('revisions').selectAll().where('id', '=', res.body.revision).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ type: 'merge', merged_from: cr.id, change_request_id: null });
    expect(JSON.parse(row.parents)).toEqual([before, crHead]);
    const space = await s.request('GET', `/v1/spaces/${spaceId}`);
    expect(space.body).toMatchObject({ changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 0 });
    const list = await s.request('GET', `/v1/spaces/${spaceId}/change-requests?status=merged`);
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([cr.id]);
  });

  it('update brings main into the CR, then merge keeps both sides (pages and lines of one page)', async () => {
    const { spaceId, cr } = await setup();
    // The CR edits line 5 of Alpha and all of Beta; main edits line 1 of Alpha and adds a page.
    await writeTree(
      s,
      { spaceId, changeRequestId: cr.id },
      tree([
        await withDoc('alpha', 'Alpha', ALPHA.replace('line 5', 'line five')),
        await withDoc('beta', 'Beta', '# Beta\n\nfrom the CR\n'),
      ]),
    );
    const mainHead = await writeTree(
      s,
      { spaceId },
      tree([
        await withDoc('alpha', 'Alpha', ALPHA.replace('line 1', 'line one')),
        await withDoc('beta', 'Beta', BETA),
        docPage('delta', 'Delta'),
      ]),
    );
    expect((await getCr(spaceId, cr.id)).outdated).toBe(true);

    const res = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/update`);
    expectSpec(res, 'POST', UPDATE, 200);
    expect(res.body.result).toBe('update');
    const updated = await getCr(spaceId, cr.id);
    expect(updated).toMatchObject({ revision: res.body.revision, revisionMergedAncestor: mainHead, outdated: false, status: 'open' });
    const row = await s.server.db.kysely.selectFrom('revisions').selectAll().where('id', '=', res.body.revision).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ type: 'update', change_request_id: cr.id });
    const crTree = await readTree(s, { spaceId, changeRequestId: cr.id });
    expect(crTree.pages.map((p) => p.id)).toEqual(['alpha', 'beta', 'delta']);
    expect(await markdownOf(crTree, 'alpha')).toBe(ALPHA.replace('line 1', 'line one').replace('line 5', 'line five'));
    expect(await markdownOf(crTree, 'beta')).toBe('# Beta\n\nfrom the CR\n');

    // Up to date: a second update makes no revision.
    const again = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/update`);
    expectSpec(again, 'POST', UPDATE, 200);
    expect(again.body.revision).toBe(res.body.revision);

    // Main moves again (a page of its own) before the merge: both are kept.
    await writeTree(
      s,
      { spaceId },
      tree([
        await withDoc('alpha', 'Alpha', ALPHA.replace('line 1', 'line one')),
        await withDoc('beta', 'Beta', BETA),
        docPage('delta', 'Delta'),
        docPage('epsilon', 'Epsilon'),
      ]),
    );
    const merge = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
    expectSpec(merge, 'POST', MERGE, 200);
    const main = await readTree(s, { spaceId });
    expect(main.pages.map((p) => p.id)).toEqual(['alpha', 'beta', 'delta', 'epsilon']);
    expect(await markdownOf(main, 'alpha')).toBe(ALPHA.replace('line 1', 'line one').replace('line 5', 'line five'));
    expect(await markdownOf(main, 'beta')).toBe('# Beta\n\nfrom the CR\n');
  });

  it('a real conflict answers 409 naming the page, and writes nothing', async () => {
    const { spaceId, cr } = await setup();
    const crHead = await writeTree(
      s,
      { spaceId, changeRequestId: cr.id },
      tree([await withDoc('alpha', 'Alpha', ALPHA.replace('line 3', 'CR line 3')), await withDoc('beta', 'Beta', BETA)]),
    );
    const mainHead = await writeTree(
      s,
      { spaceId },
      tree([await withDoc('alpha', 'Alpha', ALPHA.replace('line 3', 'main line 3')), await withDoc('beta', 'Beta', BETA)]),
    );
    const revisions = await revisionCount();

    const merge = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
    expectError(merge, 409, /"Alpha" \(alpha\): both sides changed the same lines/);
    const update = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/update`);
    expectError(update, 409, /"Alpha" \(alpha\)/);

    expect(await spaceHead(spaceId)).toBe(mainHead);
    const after = await getCr(spaceId, cr.id);
    expect(after).toMatchObject({ status: 'open', revision: crHead, outdated: true });
    expect(after.revisionMerged).toBeUndefined();
    expect(after.revisionMergedAncestor).toBeUndefined();
    expect(await revisionCount()).toBe(revisions);
  });

  it('merging a merged or archived CR is 409; so are update and PATCH of a merged one', async () => {
    const { spaceId, cr } = await setup();
    expectSpec(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`), 'POST', MERGE, 200);
    expectError(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`), 409, 'merged');
    expectError(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/update`), 409, 'merged');
    expectError(await s.request('PATCH', `/v1/spaces/${spaceId}/change-requests/${cr.id}`, { body: { status: 'open' } }), 409, 'merged');
    expect((await getCr(spaceId, cr.id)).status).toBe('merged');

    const archived = await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: {} });
    await s.request('PATCH', `/v1/spaces/${spaceId}/change-requests/${archived.body.id}`, { body: { status: 'archived' } });
    const head = await spaceHead(spaceId);
    expectError(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${archived.body.id}/merge`), 409, 'archived');
    expect(await spaceHead(spaceId)).toBe(head);
    expectError(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/unknown/merge`), 404, 'change request unknown');
  });

  it('a locked space refuses merge and update with space_locked (409)', async () => {
    const { spaceId, cr } = await setup();
    await writeTree(s, { spaceId, changeRequestId: cr.id }, tree([docPage('alpha', 'Alpha')]));
    const head = await spaceHead(spaceId);
    expect((await s.request('PATCH', `/v1/spaces/${spaceId}`, { body: { editMode: 'locked' } })).status).toBe(200);
    expectError(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`), 409, /space .* is locked/);
    expectError(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/update`), 409, /is locked/);
    expect(await spaceHead(spaceId)).toBe(head);
    expect((await getCr(spaceId, cr.id)).status).toBe('open');
    expect((await s.request('PATCH', `/v1/spaces/${spaceId}`, { body: { editMode: 'live' } })).status).toBe(200);
    expectSpec(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`), 'POST', MERGE, 200);
  });

  it('merge needs the review role, update the edit role', async () => {
    const { spaceId, cr } = await setup();
    const commenter = await s.user({ org: s.orgId, role: 'comment' });
    const editor = await s.user({ org: s.orgId, role: 'edit' });
    const reviewer = await s.user({ org: s.orgId, role: 'review' });
    expectError(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`, { token: commenter.token }), 403, 'review');
    expectError(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`, { token: editor.token }), 403, 'review');
    expectError(await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/update`, { token: commenter.token }), 403, 'edit');
    expectSpec(
      await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/update`, { token: editor.token }),
      'POST',
      UPDATE,
      200,
    );
    const merged = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`, { token: reviewer.token });
    expectSpec(merged, 'POST', MERGE, 200);
    expect((await getCr(spaceId, cr.id)).mergedBy.id).toBe(reviewer.id);
  });

  it('merging one CR twice at once merges it once; the other answer is 409', async () => {
    const { spaceId, cr } = await setup();
    await writeTree(s, { spaceId, changeRequestId: cr.id }, tree([docPage('alpha', 'Alpha')]));
    const before = await revisionCount();
    const results = await Promise.all([1, 2].map(() => s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    expectSpec(winner, 'POST', MERGE, 200);
    expectError(
      results.find((r) => r.status === 409)!,
      409,
      'merged',
    );
    expect(await spaceHead(spaceId)).toBe(winner.body.revision);
    expect(await revisionCount()).toBe(before + 1);
  });

  it('concurrent merges of CRs touching different pages all land on main (compare-and-swap retries)', async () => {
    const space = await createSpace(s);
    const spaceId = space.id as string;
    const ids = ['p0', 'p1', 'p2', 'p3'];
    const base = await Promise.all(ids.map((id) => withDoc(id, `Page ${id}`, `# ${id}\n\noriginal\n`)));
    await writeTree(s, { spaceId }, tree(base));
    const crs: { id: string }[] = [];
    for (const [i, id] of ids.entries()) {
      const cr = (await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: {} })).body;
      const pages = [...base];
      pages[i] = await withDoc(id, `Page ${id}`, `# ${id}\n\nchanged by CR ${i}\n`);
      await writeTree(s, { spaceId, changeRequestId: cr.id }, tree(pages));
      crs.push(cr);
    }
    const results = await Promise.all(crs.map((cr) => s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)));
    for (const res of results) expectSpec(res, 'POST', MERGE, 200);
    const main = await readTree(s, { spaceId });
    for (const [i, id] of ids.entries()) expect(await markdownOf(main, id)).toBe(`# ${id}\n\nchanged by CR ${i}\n`);
    // Each merge was built on the one before it: main's history is a line through all four.
    const db = s.server.db.kysely;
    const merges = new Set(results.map((r) => r.body.revision as string));
    let head = await spaceHead(spaceId);
    for (let i = 0; i < 4; i += 1) {
      expect(merges.has(head)).toBe(true);
      merges.delete(head);
      head = JSON.parse((await db.selectFrom('revisions').select('parents').where('id', '=', head).executeTakeFirstOrThrow()).parents)[0];
    }
    expect((await s.request('GET', `/v1/spaces/${spaceId}`)).body).toMatchObject({ changeRequests: 4, changeRequestsOpen: 0 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { bootstrapUserId, createSpace } from '../helpers/spaces.js';
import { docPage, writeTree } from '../helpers/content.js';
import { purgeSpace } from '../../src/server/jobs/purge-space.js';

const LIST = '/spaces/{spaceId}/change-requests';
const ONE = '/spaces/{spaceId}/change-requests/{changeRequestId}';

describe.each(testDialects())('change requests: create, read, list, patch (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function createCr(spaceId: string, body: Record<string, unknown> = {}, token?: string) {
    const res = await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body, ...(token ? { token } : {}) });
    expectSpec(res, 'POST', LIST, 201);
    return res.body;
  }

  it('POST creates an open change request at the space head, with a Location', async () => {
    const space = await createSpace(s, { title: 'Docs' });
    const me = await bootstrapUserId(s);
    const res = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, {
      body: { subject: 'Fix typos', agentTaskId: 'task_1' },
    });
    expectSpec(res, 'POST', LIST, 201);
    expect(res.body).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'open',
      subject: 'Fix typos',
      space: space.id,
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
      createdBy: { object: 'user', id: me },
    });
    expect(res.body.revisionMerged).toBeUndefined();
    expect(res.body.mergedBy).toBeUndefined();
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(res.body.urls.location).toMatch(new RegExp(`/v1/spaces/${space.id}/change-requests/${res.body.id}$`));
    const stored = await s.server.db.kysely
      .selectFrom('change_requests')
      .select('agent_task_id')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.agent_task_id).toBe('task_1');
  });

  it('POST without a body makes a change request with an empty subject', async () => {
    const space = await createSpace(s);
    const res = await s.request('POST', `/v1/spaces/${space.id}/change-requests`);
    expectSpec(res, 'POST', LIST, 201);
    expect(res.body.subject).toBe('');
  });

  it('numbers count up per space, independently across spaces, and GET finds a CR by id and by number', async () => {
    const a = await createSpace(s);
    const b = await createSpace(s);
    const a1 = await createCr(a.id);
    const a2 = await createCr(a.id);
    const b1 = await createCr(b.id);
    const a3 = await createCr(a.id);
    expect([a1.number, a2.number, a3.number, b1.number]).toEqual([1, 2, 3, 1]);
    for (const key of [a2.id, '2']) {
      const res = await s.request('GET', `/v1/spaces/${a.id}/change-requests/${key}`);
      expectSpec(res, 'GET', ONE, 200);
      expect(res.body.id).toBe(a2.id);
    }
    const other = await s.request('GET', `/v1/spaces/${b.id}/change-requests/1`);
    expect(other.body.id).toBe(b1.id);
  });

  it('concurrent creates in one space get distinct numbers 1..n', async () => {
    const space = await createSpace(s);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: {} })),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(results.map((r) => r.body.number as number).sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const got = await s.request('GET', `/v1/spaces/${space.id}`);
    expect(got.body).toMatchObject({ changeRequests: 12, changeRequestsOpen: 12, changeRequestsDraft: 0 });
  });

  it('unknown change requests, numbers beyond any stored and other organizations answer 404', async () => {
    const space = await createSpace(s);
    await createCr(space.id);
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests/unknownId`), 404, 'change request unknownId');
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests/7`), 404);
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests/99999999999999999999`), 404);
    const other = await s.organization();
    const foreign = await createSpace(s, {}, { org: other.id, token: other.adminToken });
    const foreignCr = await createCr(foreign.id, {}, other.adminToken);
    expectError(await s.request('GET', `/v1/spaces/${foreign.id}/change-requests`), 404, `space ${foreign.id}`);
    expectError(await s.request('GET', `/v1/spaces/${foreign.id}/change-requests/${foreignCr.id}`), 404);
    expectError(await s.request('POST', `/v1/spaces/${foreign.id}/change-requests`, { body: {} }), 404);
    // A change request is found only through its own space.
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests/${foreignCr.id}`), 404);
  });

  it('validates subject length, PATCH status values and unknown fields', async () => {
    const space = await createSpace(s);
    await createCr(space.id, { subject: 'x'.repeat(100) });
    expectError(
      await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'x'.repeat(101) } }),
      400,
      'body.subject',
    );
    expectError(await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { title: 'x' } }), 400, 'title');
    const cr = await createCr(space.id);
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    expectError(await s.request('PATCH', path, { body: { status: 'merged' } }), 400, 'body.status');
    expectError(await s.request('PATCH', path, { body: { status: 'closed' } }), 400, 'body.status');
    expectError(await s.request('PATCH', path, { body: { subject: 'y'.repeat(101) } }), 400, 'body.subject');
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests?status=closed`), 400, 'query.status');
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests?order=asc`), 400, 'order');
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests?page=nonsense`), 400, 'page');
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests/bad.id`), 400, 'path.changeRequestId');
  });

  it('PATCH changes subject and status, and the space counters follow', async () => {
    const space = await createSpace(s);
    const one = await createCr(space.id);
    const two = await createCr(space.id);
    await createCr(space.id);
    const counters = async () => {
      const res = await s.request('GET', `/v1/spaces/${space.id}`);
      expectSpec(res, 'GET', '/spaces/{spaceId}', 200);
      return [res.body.changeRequests, res.body.changeRequestsOpen, res.body.changeRequestsDraft];
    };
    expect(await counters()).toEqual([3, 3, 0]);
    s.clock.advance(1000);
    const res = await s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${one.number}`, {
      body: { subject: 'Renamed', status: 'draft' },
    });
    expectSpec(res, 'PATCH', ONE, 200);
    expect(res.body).toMatchObject({ id: one.id, subject: 'Renamed', status: 'draft' });
    expect(res.body.updatedAt > one.updatedAt).toBe(true);
    expect(await counters()).toEqual([3, 2, 1]);
    const archived = await s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${two.id}`, { body: { status: 'archived' } });
    expectSpec(archived, 'PATCH', ONE, 200);
    expect(await counters()).toEqual([3, 1, 1]);
    const reopened = await s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${two.id}`, { body: { status: 'open' } });
    expect(reopened.body.status).toBe('open');
    expect(await counters()).toEqual([3, 2, 1]);
    const unchanged = await s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${two.id}`, { body: {} });
    expectSpec(unchanged, 'PATCH', ONE, 200);
    expect(unchanged.body).toEqual(reopened.body);
  });

  it('counters stay true under concurrent creates and status changes', async () => {
    const space = await createSpace(s);
    const crs = [];
    for (let i = 0; i < 9; i += 1) crs.push(await createCr(space.id));
    const statuses = ['draft', 'archived', 'open'] as const;
    await Promise.all([
      ...crs.map((cr, i) => s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { body: { status: statuses[i % 3] } })),
      ...[1, 2, 3].map(() => s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: {} })),
    ]);
    const res = await s.request('GET', `/v1/spaces/${space.id}`);
    expect(res.body).toMatchObject({ changeRequests: 12, changeRequestsOpen: 6, changeRequestsDraft: 3 });
  });

  it('lists by status (default open), newest update first, and by contributor', async () => {
    const space = await createSpace(s);
    const writer = await s.user({ org: s.orgId, role: 'edit' });
    const helper = await s.user({ org: s.orgId, role: 'edit' });
    const crs = [];
    for (let i = 0; i < 4; i += 1) {
      s.clock.advance(1000);
      crs.push(await createCr(space.id, { subject: `cr ${i}` }, i === 0 ? writer.token : undefined));
    }
    s.clock.advance(1000);
    await s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${crs[1].id}`, { body: { status: 'draft' } });
    await s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${crs[2].id}`, { body: { status: 'archived' } });
    const ids = async (query: string) => {
      const res = await s.request('GET', `/v1/spaces/${space.id}/change-requests${query}`);
      expectSpec(res, 'GET', LIST, 200);
      expect(res.body.count).toBe(res.body.items.length);
      return (res.body.items as { id: string }[]).map((i) => i.id);
    };
    expect(await ids('')).toEqual([crs[3].id, crs[0].id]);
    expect(await ids('?status=open')).toEqual([crs[3].id, crs[0].id]);
    expect(await ids('?status=draft')).toEqual([crs[1].id]);
    expect(await ids('?status=archived')).toEqual([crs[2].id]);
    expect(await ids('?status=merged')).toEqual([]);

    // helper contributes a revision to CR 3 without having created it.
    const db = s.server.db.kysely;
    await writeTree(
      s,
      { spaceId: space.id, changeRequestId: crs[3].id },
      { pages: [docPage('p1', 'Page')], files: [], variables: {}, reusableContents: [] },
    );
    await db.updateTable('revisions').set({ created_by: helper.id }).where('change_request_id', '=', crs[3].id).execute();
    expect(await ids(`?contributor=${writer.id}`)).toEqual([crs[0].id]);
    expect(await ids(`?contributor=${helper.id}`)).toEqual([crs[3].id]);
    expect(await ids(`?contributor=${helper.id}&status=draft`)).toEqual([]);
    expect(await ids('?contributor=nobody')).toEqual([]);
  });

  it('pages through a long list without duplicates or gaps', async () => {
    const space = await createSpace(s);
    const made: string[] = [];
    for (let i = 0; i < 7; i += 1) made.push((await createCr(space.id)).id);
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res = await s.request('GET', `/v1/spaces/${space.id}/change-requests?limit=3${page ? `&page=${page}` : ''}`);
      expectSpec(res, 'GET', LIST, 200);
      seen.push(...(res.body.items as { id: string }[]).map((i) => i.id));
      page = res.body.next?.page;
      pages += 1;
    } while (page);
    expect(pages).toBe(3);
    expect(seen.length).toBe(7);
    expect(new Set(seen)).toEqual(new Set(made));
  });

  it('enforces roles: read may view, edit may create and patch, 401 without a token', async () => {
    const space = await createSpace(s);
    const cr = await createCr(space.id);
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const editor = await s.user({ org: s.orgId, role: 'edit' });
    const outsider = await s.user();
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests`, { token: null }), 401);
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { token: 'nope' }), 401);
    expectSpec(await s.request('GET', `/v1/spaces/${space.id}/change-requests`, { token: reader.token }), 'GET', LIST, 200);
    expectSpec(await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { token: reader.token }), 'GET', ONE, 200);
    expectError(await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: {}, token: reader.token }), 403, 'edit');
    expectError(
      await s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${cr.id}`, { body: { subject: 'x' }, token: reader.token }),
      403,
    );
    expectError(await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/update`, { token: reader.token }), 403);
    expectError(await s.request('GET', `/v1/spaces/${space.id}/change-requests`, { token: outsider.token }), 404);
    const created = await createCr(space.id, {}, editor.token);
    expect(created.createdBy.id).toBe(editor.id);
    const patched = await s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${created.id}`, {
      body: { subject: 'mine' },
      token: editor.token,
    });
    expectSpec(patched, 'PATCH', ONE, 200);
  });

  it('purging a deleted space removes its change requests', async () => {
    const space = await createSpace(s);
    const cr = await createCr(space.id);
    expect((await s.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    const db = s.server.db.kysely;
    await purgeSpace(db, { spaceId: space.id }, new Date(s.clock.now().getTime() + 8 * 24 * 3600 * 1000));
    expect(await db.selectFrom('change_requests').select('id').where('id', '=', cr.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('spaces').select('id').where('id', '=', space.id).executeTakeFirst()).toBeUndefined();
  });
});

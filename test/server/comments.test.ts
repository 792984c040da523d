import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { bootstrapUserId } from '../helpers/spaces.js';
import {
  CR_COMMENT,
  CR_COMMENTS,
  SPACE_COMMENT,
  SPACE_COMMENTS,
  commentedSpace,
  counts,
  openChangeRequest,
  postComment,
} from '../helpers/comments.js';
import { MAX_COMMENT_MARKDOWN } from '../../src/model/index.js';

describe.each(testDialects())('comments: post, read, resolve, edit, delete, counts (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a space comment: posted by the caller, open, counted on the space; GET answers it', async () => {
    const space = await commentedSpace(s);
    const me = await bootstrapUserId(s);
    const c = await postComment(s, space.prefix, { body: { markdown: 'Looks **good**' }, page: 'p-guide' });
    expect(c).toMatchObject({
      object: 'comment',
      postedBy: { object: 'user', id: me },
      body: { markdown: 'Looks **good**' },
      replies: 0,
      repliers: [],
      reactions: [],
      status: 'open',
      target: { space: space.id, page: { id: 'p-guide', title: 'Guide', emoji: '1f4d8', path: 'guide', outdated: false } },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(c.editedAt).toBeUndefined();
    expect(c.resolvedAt).toBeUndefined();
    expect(c.target.changeRequest).toBeUndefined();
    const head = await s.request('GET', space.prefix);
    expect(c.target.revision).toBe(head.body.revision);
    expect(head.body.comments).toBe(1);
    expect(c.urls.location).toBe(`${s.url}/v1/spaces/${space.id}/comments/${c.id}`);
    const got = await s.request('GET', `${space.prefix}/comments/${c.id}`);
    expectSpec(got, 'GET', SPACE_COMMENT, 200);
    expect(got.body).toEqual(c);
  });

  it('a comment without a page targets the space alone', async () => {
    const space = await commentedSpace(s);
    const c = await postComment(s, space.prefix, { body: { markdown: 'General remark' } });
    expect(c.target).toEqual({ space: space.id, revision: expect.any(String) });
  });

  it('change request comments: by id or number, counted on the change request only, not listed on the space', async () => {
    const space = await commentedSpace(s);
    const cr = await openChangeRequest(s, space.id);
    const byNumber = await postComment(s, `${space.prefix}/change-requests/${cr.number}`, {
      body: { markdown: 'On the CR' },
      page: 'p-other',
    });
    expect(byNumber.target).toMatchObject({ space: space.id, changeRequest: cr.id, page: { id: 'p-other' } });
    expect(byNumber.urls.location).toBe(`${s.url}/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${byNumber.id}`);
    await postComment(s, `${space.prefix}/change-requests/${cr.id}`, { body: { markdown: 'Second' } });
    expect(await counts(s, space.id, cr.id)).toEqual({ space: 0, cr: 2 });
    const list = await s.request('GET', `${space.prefix}/change-requests/${cr.id}/comments`);
    expectSpec(list, 'GET', CR_COMMENTS, 200);
    expect(list.body.count).toBe(2);
    const onSpace = await s.request('GET', `${space.prefix}/comments`);
    expectSpec(onSpace, 'GET', SPACE_COMMENTS, 200);
    expect(onSpace.body.items).toEqual([]);
    expectError(await s.request('GET', `${space.prefix}/comments/${byNumber.id}`), 404, byNumber.id);
    const one = await s.request('GET', `${space.prefix}/change-requests/${cr.number}/comments/${byNumber.id}`);
    expectSpec(one, 'GET', CR_COMMENT, 200);
    expectError(await s.request('GET', `${space.prefix}/change-requests/999/comments`), 404, 'change request 999');
  });

  it('resolve and reopen: status, resolvedAt and resolvedBy, counts; editedAt moves on body edits only', async () => {
    const space = await commentedSpace(s);
    const cr = await openChangeRequest(s, space.id);
    const base = `${space.prefix}/change-requests/${cr.id}`;
    const me = await bootstrapUserId(s);
    const c = await postComment(s, base, { body: { markdown: 'Fix this' } });
    s.clock.advance(1000);
    const resolved = await s.request('PUT', `${base}/comments/${c.id}`, { body: { resolved: true } });
    expectSpec(resolved, 'PUT', CR_COMMENT, 200);
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: { id: me } });
    expect(resolved.body.resolvedAt > c.postedAt).toBe(true);
    expect(resolved.body.editedAt).toBeUndefined();
    expect(await counts(s, space.id, cr.id)).toEqual({ space: 0, cr: 0 });
    s.clock.advance(1000);
    const again = await s.request('PUT', `${base}/comments/${c.id}`, { body: { resolved: true } });
    expect(again.body.resolvedAt).toBe(resolved.body.resolvedAt);
    const reopened = await s.request('PUT', `${base}/comments/${c.id}`, { body: { resolved: false } });
    expectSpec(reopened, 'PUT', CR_COMMENT, 200);
    expect(reopened.body.status).toBe('open');
    expect(reopened.body.resolvedAt).toBeUndefined();
    expect(reopened.body.resolvedBy).toBeUndefined();
    expect(await counts(s, space.id, cr.id)).toEqual({ space: 0, cr: 1 });
    const same = await s.request('PUT', `${base}/comments/${c.id}`, { body: { body: { markdown: 'Fix this' } } });
    expect(same.body.editedAt).toBeUndefined();
    s.clock.advance(1000);
    const edited = await s.request('PUT', `${base}/comments/${c.id}`, { body: { body: { markdown: 'Fix this, please' } } });
    expect(edited.body.body).toEqual({ markdown: 'Fix this, please' });
    expect(edited.body.editedAt > c.postedAt).toBe(true);
    const empty = await s.request('PUT', `${base}/comments/${c.id}`, { body: {} });
    expectSpec(empty, 'PUT', CR_COMMENT, 200);
    expect(empty.body.editedAt).toBe(edited.body.editedAt);
  });

  it('delete answers 205, drops the count, and the comment and its replies are gone', async () => {
    const space = await commentedSpace(s);
    const c = await postComment(s, space.prefix, { body: { markdown: 'Bye' } });
    const r = await s.request('POST', `${space.prefix}/comments/${c.id}/replies`, { body: { body: { markdown: 'reply' } } });
    expect(r.status).toBe(200);
    expect((await counts(s, space.id)).space).toBe(1);
    const del = await s.request('DELETE', `${space.prefix}/comments/${c.id}`);
    expectSpec(del, 'DELETE', SPACE_COMMENT, 205);
    expect((await counts(s, space.id)).space).toBe(0);
    expectError(await s.request('GET', `${space.prefix}/comments/${c.id}`), 404);
    expectError(await s.request('GET', `${space.prefix}/comments/${c.id}/replies/${r.body.id}`), 404);
    expectError(await s.request('DELETE', `${space.prefix}/comments/${c.id}`), 404);
    expectError(await s.request('POST', `${space.prefix}/comments/${c.id}/replies`, { body: { body: { markdown: 'late' } } }), 404, c.id);
    const rows = await s.server.db.kysely.selectFrom('comment_replies').select('id').where('comment_id', '=', c.id).execute();
    expect(rows).toEqual([]);
  });

  it('a resolved comment deleted leaves the open count alone', async () => {
    const space = await commentedSpace(s);
    const a = await postComment(s, space.prefix, { body: { markdown: 'a' } });
    await postComment(s, space.prefix, { body: { markdown: 'b' } });
    await s.request('PUT', `${space.prefix}/comments/${a.id}`, { body: { resolved: true } });
    expect((await counts(s, space.id)).space).toBe(1);
    await s.request('DELETE', `${space.prefix}/comments/${a.id}`);
    expect((await counts(s, space.id)).space).toBe(1);
  });

  it('concurrent posts and resolves keep the counts true', async () => {
    const space = await commentedSpace(s);
    const posted = await Promise.all(
      Array.from({ length: 10 }, (_, i) => s.request('POST', `${space.prefix}/comments`, { body: { body: { markdown: `c${i}` } } })),
    );
    for (const r of posted) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await counts(s, space.id)).space).toBe(10);
    await Promise.all(
      posted.slice(0, 4).map((r) => s.request('PUT', `${space.prefix}/comments/${r.body.id}`, { body: { resolved: true } })),
    );
    await Promise.all(posted.slice(4, 6).map((r) => s.request('DELETE', `${space.prefix}/comments/${r.body.id}`)));
    expect((await counts(s, space.id)).space).toBe(4);
  });

  it('a JSON document body is stored as markdown; format=document answers the body as a document', async () => {
    const space = await commentedSpace(s);
    const document = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hello', marks: [{ object: 'mark', type: 'bold' }] }] }],
        },
      ],
    };
    const c = await postComment(s, space.prefix, { body: { document } });
    expect(c.body).toEqual({ markdown: '**Hello**\n' });
    const asDoc = await s.request('GET', `${space.prefix}/comments/${c.id}?format=document`);
    expectSpec(asDoc, 'GET', SPACE_COMMENT, 200);
    expect(asDoc.body.body.document).toMatchObject({ object: 'document', nodes: [{ type: 'paragraph' }] });
    const list = await s.request('GET', `${space.prefix}/comments?format=document`);
    expect(list.body.items[0].body.document.object).toBe('document');
    const md = await s.request('GET', `${space.prefix}/comments/${c.id}?format=markdown`);
    expect(md.body.body).toEqual({ markdown: '**Hello**\n' });
  });

  it('bad bodies and targets are 400s naming the field', async () => {
    const space = await commentedSpace(s);
    const post = (body: unknown) => s.request('POST', `${space.prefix}/comments`, { body });
    expectError(await post({ body: {} }), 400, /body.*empty/);
    expectError(await post({ body: { markdown: '  \n' } }), 400, 'body.markdown must not be empty');
    expectError(await post({ body: { markdown: 'x'.repeat(MAX_COMMENT_MARKDOWN + 1) } }), 400, `${MAX_COMMENT_MARKDOWN}`);
    expectError(await post({ body: { markdown: 'a', document: { object: 'document', nodes: [] } } }), 400, 'not both');
    expectError(await post({ body: { document: { object: 'document', data: {}, nodes: [] } } }), 400, 'body.document must not be empty');
    expectError(await post({ body: { html: '<p>' } }), 400, 'html');
    expectError(await post({}), 400, 'body');
    expectError(await post({ body: { markdown: 'x' }, page: 'nope' }), 400, 'body.page: page nope not found');
    expectError(await post({ body: { markdown: 'x' }, page: 'p-guide', node: 'bnope' }), 400, 'body.node: no block bnope');
    expectError(await post({ body: { markdown: 'x' }, node: 'b1' }), 400, 'body.node needs body.page');
    expectError(await post({ body: { markdown: 'x' }, extra: 1 }), 400, 'extra');
    expectError(await post({ body: { markdown: 5 } }), 400, 'body.body.markdown');
    const c = await postComment(s, space.prefix, { body: { markdown: 'x' } });
    const put = (body: unknown) => s.request('PUT', `${space.prefix}/comments/${c.id}`, { body });
    expectError(await put({ body: {} }), 400, 'empty');
    expectError(await put({ resolved: 'yes' }), 400, 'body.resolved');
    expectError(await put({ status: 'resolved' }), 400, 'status');
    expectError(await s.request('GET', `${space.prefix}/comments?status=closed`), 400, 'query.status');
    expectError(await s.request('GET', `${space.prefix}/comments?order=up`), 400, 'query.order');
    expectError(await s.request('GET', `${space.prefix}/comments?format=html`), 400, 'query.format');
    expectError(await s.request('GET', `${space.prefix}/comments?page=garbage`), 400, 'query `page`');
    expectError(await s.request('GET', `${space.prefix}/comments/unknown1`), 404, 'comment unknown1');
    expectError(await s.request('PUT', `${space.prefix}/comments/unknown1`, { body: { resolved: true } }), 404);
    expectError(await s.request('GET', `/v1/spaces/nospace/comments`), 404, 'space nospace');
  });
});

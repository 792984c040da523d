import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { bootstrapUserId } from '../helpers/spaces.js';
import { commentedSpace, openChangeRequest, postComment } from '../helpers/comments.js';

const REPLIES = (cr: boolean) => `/spaces/{spaceId}${cr ? '/change-requests/{changeRequestId}' : ''}/comments/{commentId}/replies`;
const REPLY = (cr: boolean) => `${REPLIES(cr)}/{commentReplyId}`;

describe.each(testDialects())('comment replies, reactions, commenters (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  for (const onCr of [false, true]) {
    it(`replies on a ${onCr ? 'change request' : 'space'} comment: list, post, get, update, delete`, async () => {
      const space = await commentedSpace(s);
      const base = onCr ? `${space.prefix}/change-requests/${(await openChangeRequest(s, space.id)).number}` : space.prefix;
      const me = await bootstrapUserId(s);
      const other = await s.user({ org: s.orgId, role: 'comment' });
      const c = await postComment(s, base, { body: { markdown: 'Question?' } });
      const r1 = await s.request('POST', `${base}/comments/${c.id}/replies`, { body: { body: { markdown: 'Answer 1' } } });
      expectSpec(r1, 'POST', REPLIES(onCr), 200);
      expect(r1.body).toMatchObject({ object: 'comment-reply', postedBy: { id: me }, body: { markdown: 'Answer 1' }, reactions: [] });
      expect(r1.body.editedAt).toBeUndefined();
      expect(r1.body.urls.location).toMatch(new RegExp(`/comments/${c.id}/replies/${r1.body.id}$`));
      s.clock.advance(1000);
      const r2 = await s.request('POST', `${base}/comments/${c.id}/replies`, {
        token: other.token,
        body: { body: { markdown: 'Answer 2' } },
      });
      s.clock.advance(1000);
      await s.request('POST', `${base}/comments/${c.id}/replies`, { token: other.token, body: { body: { markdown: 'Answer 3' } } });
      const comment = await s.request('GET', `${base}/comments/${c.id}`);
      expect(comment.body.replies).toBe(3);
      expect(comment.body.repliers.map((r: { user: { id: string }; count: number }) => [r.user.id, r.count])).toEqual([
        [me, 1],
        [other.id, 2],
      ]);
      // Replies do not count as open comments.
      const counted = await s.request('GET', onCr ? `${space.prefix}/change-requests/${c.target.changeRequest}` : space.prefix);
      expect(counted.body.comments).toBe(1);

      const page1 = await s.request('GET', `${base}/comments/${c.id}/replies?limit=2`);
      expectSpec(page1, 'GET', REPLIES(onCr), 200);
      expect(page1.body.items.map((r: { body: { markdown: string } }) => r.body.markdown)).toEqual(['Answer 1', 'Answer 2']);
      const page2 = await s.request('GET', `${base}/comments/${c.id}/replies?limit=2&page=${page1.body.next.page}`);
      expect(page2.body.items.map((r: { body: { markdown: string } }) => r.body.markdown)).toEqual(['Answer 3']);
      expect(page2.body.next).toBeUndefined();
      const asDoc = await s.request('GET', `${base}/comments/${c.id}/replies?format=document`);
      expect(asDoc.body.items[0].body.document.object).toBe('document');

      const got = await s.request('GET', `${base}/comments/${c.id}/replies/${r2.body.id}`);
      expectSpec(got, 'GET', REPLY(onCr), 200);
      expect(got.body).toEqual({ ...r2.body, permissions: { view: true, edit: false, reply: true, delete: true } });
      s.clock.advance(1000);
      const edited = await s.request('PUT', `${base}/comments/${c.id}/replies/${r2.body.id}`, {
        token: other.token,
        body: { body: { markdown: 'Answer 2, better' } },
      });
      expectSpec(edited, 'PUT', REPLY(onCr), 200);
      expect(edited.body.editedAt > r2.body.postedAt).toBe(true);
      const reacted = await s.request('PUT', `${base}/comments/${c.id}/replies/${r2.body.id}`, { body: { addedReactions: ['👍'] } });
      expect(reacted.body.reactions).toEqual([
        { emoji: '👍', count: 1, users: [{ user: expect.objectContaining({ id: me }), reactedAt: expect.any(String) }] },
      ]);
      expect(reacted.body.editedAt).toBe(edited.body.editedAt);
      expectError(await s.request('PUT', `${base}/comments/${c.id}/replies/${r2.body.id}`, { body: { resolved: true } }), 400, 'resolved');
      expectError(await s.request('POST', `${base}/comments/${c.id}/replies`, { body: { body: { markdown: '' } } }), 400, 'empty');

      const del = await s.request('DELETE', `${base}/comments/${c.id}/replies/${r2.body.id}`, { token: other.token });
      expectSpec(del, 'DELETE', REPLY(onCr), 205);
      expectError(await s.request('GET', `${base}/comments/${c.id}/replies/${r2.body.id}`), 404, r2.body.id);
      expectError(await s.request('DELETE', `${base}/comments/${c.id}/replies/${r2.body.id}`), 404);
      expect((await s.request('GET', `${base}/comments/${c.id}`)).body.replies).toBe(2);
      expectError(await s.request('GET', `${base}/comments/${c.id}/replies/${r1.body.id}x`), 404);
    });
  }

  it('a reply addressed through another comment is not found', async () => {
    const space = await commentedSpace(s);
    const a = await postComment(s, space.prefix, { body: { markdown: 'a' } });
    const b = await postComment(s, space.prefix, { body: { markdown: 'b' } });
    const r = await s.request('POST', `${space.prefix}/comments/${a.id}/replies`, { body: { body: { markdown: 'on a' } } });
    expectError(await s.request('GET', `${space.prefix}/comments/${b.id}/replies/${r.body.id}`), 404);
  });

  it('reactions: once per user and emoji, grouped with their users, hex code points are the same emoji, removing one never added is a no-op', async () => {
    const space = await commentedSpace(s);
    const me = await bootstrapUserId(s);
    const other = await s.user({ org: s.orgId, role: 'comment' });
    const c = await postComment(s, space.prefix, { body: { markdown: 'react' } });
    const put = (body: unknown, token?: string) =>
      s.request('PUT', `${space.prefix}/comments/${c.id}`, { body, ...(token ? { token } : {}) });
    let res = await put({ addedReactions: ['👍', '👍'] });
    expectSpec(res, 'PUT', '/spaces/{spaceId}/comments/{commentId}', 200);
    s.clock.advance(1000);
    res = await put({ addedReactions: ['🎉'] });
    res = await put({ addedReactions: ['1f44d'] }, other.token);
    res = await put({ addedReactions: ['👍'] });
    const thumbs = res.body.reactions.find((r: { emoji: string }) => r.emoji === '👍');
    expect(thumbs.count).toBe(2);
    expect(thumbs.users.map((u: { user: { id: string } }) => u.user.id)).toEqual([me, other.id]);
    expect(res.body.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([
      ['👍', 2],
      ['🎉', 1],
    ]);
    res = await put({ removedReactions: ['🚀', '🎉'] });
    expect(res.body.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([['👍', 2]]);
    res = await put({ removedReactions: ['👍'] }, other.token);
    expect(res.body.reactions).toEqual([
      { emoji: '👍', count: 1, users: [{ user: expect.objectContaining({ id: me }), reactedAt: expect.any(String) }] },
    ]);
    expect(res.body.editedAt).toBeUndefined();
    expectError(await put({ addedReactions: ['hello'] }), 400, 'body.addedReactions.0');
    expectError(await put({ addedReactions: ['1'] }), 400, 'body.addedReactions.0: "1" is not an emoji');
    expectError(await put({ addedReactions: [''] }), 400, 'body.addedReactions.0');
    expectError(await put({ removedReactions: ['abc'] }), 400, 'body.removedReactions.0');
    expectError(await put({ addedReactions: '👍' }), 400, 'body.addedReactions');
  });

  it('commenters of a space (its change requests included) and of a change request, paged', async () => {
    const space = await commentedSpace(s);
    const cr = await openChangeRequest(s, space.id);
    const users = await Promise.all([1, 2, 3].map(() => s.user({ org: s.orgId, role: 'comment' })));
    const c = await postComment(s, space.prefix, { body: { markdown: 'a' } }, users[0]!.token);
    await s.request('POST', `${space.prefix}/comments/${c.id}/replies`, { token: users[1]!.token, body: { body: { markdown: 'b' } } });
    await postComment(s, `${space.prefix}/change-requests/${cr.id}`, { body: { markdown: 'c' } }, users[2]!.token);
    await postComment(s, `${space.prefix}/change-requests/${cr.id}`, { body: { markdown: 'c again' } }, users[2]!.token);
    const gone = await s.user({ org: s.orgId, role: 'comment' });
    await postComment(s, space.prefix, { body: { markdown: 'then left' } }, gone.token);
    await s.server.db.kysely.deleteFrom('members').where('user_id', '=', gone.id).execute();

    const seen: string[] = [];
    let path = `${space.prefix}/commenters?limit=2`;
    for (let guard = 0; guard < 4; guard += 1) {
      const res = await s.request('GET', path);
      expectSpec(res, 'GET', '/spaces/{spaceId}/commenters', 200);
      seen.push(...res.body.items.map((m: { id: string }) => m.id));
      if (!res.body.next) break;
      path = `${space.prefix}/commenters?limit=2&page=${res.body.next.page}`;
    }
    expect(seen).toEqual(users.map((u) => u.id).sort());
    const onCr = await s.request('GET', `${space.prefix}/change-requests/${cr.number}/commenters`);
    expectSpec(onCr, 'GET', '/spaces/{spaceId}/change-requests/{changeRequestId}/commenters', 200);
    expect(onCr.body.items).toEqual([
      expect.objectContaining({ object: 'member', id: users[2]!.id, role: 'comment', user: expect.objectContaining({ id: users[2]!.id }) }),
    ]);
    expectError(await s.request('GET', `${space.prefix}/commenters?limit=0`), 400, 'query.limit');
  });

  it('a commenter is the same member object as the members listing, counts included', async () => {
    const space = await commentedSpace(s);
    const writer = await s.user({ org: s.orgId, role: 'comment' });
    const team = await s.request('PUT', `/v1/orgs/${s.orgId}/teams`, { body: { title: `Reviewers ${writer.id}`, members: [writer.id] } });
    expect(team.status).toBe(201);
    await postComment(s, space.prefix, { body: { markdown: 'counted' } }, writer.token);
    const listed = await s.request('GET', `${space.prefix}/commenters`);
    expectSpec(listed, 'GET', '/spaces/{spaceId}/commenters', 200);
    const member = await s.request('GET', `/v1/orgs/${s.orgId}/members/${writer.id}`);
    expect(member.status).toBe(200);
    const commenter = listed.body.items.find((m: { id: string }) => m.id === writer.id);
    expect(commenter).toMatchObject({ teams: 1 });
    expect(commenter.spaces).toBeGreaterThan(0);
    expect(commenter).toEqual(member.body);
  });
});

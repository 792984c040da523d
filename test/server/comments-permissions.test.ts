import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { SPACE_COMMENT, commentedSpace, openChangeRequest, postComment } from '../helpers/comments.js';

describe.each(testDialects())('comment permissions (%s)', (dialect) => {
  let s: TestServer;
  let prefix: string;
  let reader: { id: string; token: string };
  let commenter: { id: string; token: string };
  let commenter2: { id: string; token: string };
  let editor: { id: string; token: string };
  beforeAll(async () => {
    s = await startServer(dialect);
    const space = await commentedSpace(s);
    // inherit: each member's organization role decides.
    await s.request('PATCH', space.prefix, { body: { defaultLevel: 'inherit' } });
    prefix = space.prefix;
    reader = await s.user({ org: s.orgId, role: 'read' });
    commenter = await s.user({ org: s.orgId, role: 'comment' });
    commenter2 = await s.user({ org: s.orgId, role: 'comment' });
    editor = await s.user({ org: s.orgId, role: 'edit' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('read sees comments and may do nothing else', async () => {
    const c = await postComment(s, prefix, { body: { markdown: 'admin says' } });
    const got = await s.request('GET', `${prefix}/comments/${c.id}`, { token: reader.token });
    expectSpec(got, 'GET', SPACE_COMMENT, 200);
    expect(got.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect((await s.request('GET', `${prefix}/comments`, { token: reader.token })).status).toBe(200);
    expectError(
      await s.request('POST', `${prefix}/comments`, { token: reader.token, body: { body: { markdown: 'x' } } }),
      403,
      'comment role',
    );
    expectError(await s.request('PUT', `${prefix}/comments/${c.id}`, { token: reader.token, body: { resolved: true } }), 403);
    expectError(await s.request('PUT', `${prefix}/comments/${c.id}`, { token: reader.token, body: { addedReactions: ['👍'] } }), 403);
    expectError(await s.request('DELETE', `${prefix}/comments/${c.id}`, { token: reader.token }), 403);
    expectError(
      await s.request('POST', `${prefix}/comments/${c.id}/replies`, { token: reader.token, body: { body: { markdown: 'x' } } }),
      403,
    );
  });

  it('comment role posts and replies; its author edits and deletes its own only', async () => {
    const mine = await postComment(s, prefix, { body: { markdown: 'mine' } }, commenter.token);
    expect(mine.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
    const seenByOther = await s.request('GET', `${prefix}/comments/${mine.id}`, { token: commenter2.token });
    expect(seenByOther.body.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
    expectError(
      await s.request('PUT', `${prefix}/comments/${mine.id}`, { token: commenter2.token, body: { body: { markdown: 'hijack' } } }),
      403,
      'author',
    );
    expectError(await s.request('DELETE', `${prefix}/comments/${mine.id}`, { token: commenter2.token }), 403, 'author or an admin');
    // Resolving and reacting are not the author's alone.
    const resolved = await s.request('PUT', `${prefix}/comments/${mine.id}`, {
      token: commenter2.token,
      body: { resolved: true, addedReactions: ['🎉'] },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.resolvedBy.id).toBe(commenter2.id);
    const reply = await s.request('POST', `${prefix}/comments/${mine.id}/replies`, {
      token: commenter2.token,
      body: { body: { markdown: 'agreed' } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
    const edited = await s.request('PUT', `${prefix}/comments/${mine.id}`, {
      token: commenter.token,
      body: { body: { markdown: 'mine, edited' } },
    });
    expect(edited.body.body.markdown).toBe('mine, edited');
    expect((await s.request('DELETE', `${prefix}/comments/${mine.id}`, { token: commenter.token })).status).toBe(205);
  });

  it('an editor (not admin) cannot delete what others wrote; an admin deletes any comment and reply', async () => {
    const c = await postComment(s, prefix, { body: { markdown: 'by commenter' } }, commenter.token);
    const asEditor = await s.request('GET', `${prefix}/comments/${c.id}`, { token: editor.token });
    expect(asEditor.body.permissions.delete).toBe(false);
    expectError(await s.request('DELETE', `${prefix}/comments/${c.id}`, { token: editor.token }), 403);
    const r = await s.request('POST', `${prefix}/comments/${c.id}/replies`, {
      token: commenter.token,
      body: { body: { markdown: 'reply' } },
    });
    const asAdmin = await s.request('GET', `${prefix}/comments/${c.id}/replies/${r.body.id}`);
    expect(asAdmin.body.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    expectError(
      await s.request('PUT', `${prefix}/comments/${c.id}/replies/${r.body.id}`, { body: { body: { markdown: 'admin edit' } } }),
      403,
      'author',
    );
    expect((await s.request('DELETE', `${prefix}/comments/${c.id}/replies/${r.body.id}`)).status).toBe(205);
    expect((await s.request('DELETE', `${prefix}/comments/${c.id}`)).status).toBe(205);
  });

  it('a user who lost the comment role can no longer edit its own comment', async () => {
    const user = await s.user({ org: s.orgId, role: 'comment' });
    const c = await postComment(s, prefix, { body: { markdown: 'before' } }, user.token);
    const { upsertMember } = await import('../../src/server/store/organizations.js');
    await upsertMember(s.server.db.kysely, { orgId: s.orgId, userId: user.id, role: 'read' }, s.clock.now().toISOString());
    const got = await s.request('GET', `${prefix}/comments/${c.id}`, { token: user.token });
    expect(got.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    expectError(await s.request('PUT', `${prefix}/comments/${c.id}`, { token: user.token, body: { body: { markdown: 'after' } } }), 403);
  });

  it('outsiders get 404 for comments, replies and commenters of the space and its change requests', async () => {
    const other = await s.organization();
    const c = await postComment(s, prefix, { body: { markdown: 'private' } });
    const spaceId = prefix.split('/').pop()!;
    const cr = await openChangeRequest(s, spaceId);
    for (const path of [
      `${prefix}/comments`,
      `${prefix}/comments/${c.id}`,
      `${prefix}/comments/${c.id}/replies`,
      `${prefix}/commenters`,
      `${prefix}/change-requests/${cr.id}/comments`,
      `${prefix}/change-requests/${cr.id}/commenters`,
    ]) {
      expectError(await s.request('GET', path, { token: other.adminToken }), 404);
    }
    expectError(await s.request('POST', `${prefix}/comments`, { token: other.adminToken, body: { body: { markdown: 'x' } } }), 404);
    expectError(await s.request('GET', `${prefix}/comments`, { token: null }), 401);
  });
});

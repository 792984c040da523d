import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { docPage, readTree, storeMarkdown, writeTree } from '../helpers/content.js';
import { CR_COMMENT, GUIDE, commentedSpace, counts, openChangeRequest, postComment } from '../helpers/comments.js';

type Block = { key?: string; nodes?: Block[]; leaves?: { text: string }[] };

/** Block keys by text, from a page read with format=document (what a reviewer's client sees). */
async function blockKeys(s: TestServer, contentPath: string): Promise<Map<string, string>> {
  const res = await s.request('GET', `${contentPath}?format=document`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const keys = new Map<string, string>();
  const text = (b: Block): string => (b.leaves ? b.leaves.map((l) => l.text).join('') : (b.nodes ?? []).map(text).join(''));
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.key) keys.set(text(b), b.key);
      else walk(b.nodes ?? []);
    }
  };
  walk(res.body.document.nodes);
  return keys;
}

describe.each(testDialects())('comment targets: nodes, outdated pages, merge (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a comment on a block keeps its node id and preview; the page turns outdated when its content changes, not before', async () => {
    const space = await commentedSpace(s);
    const cr = await openChangeRequest(s, space.id);
    const base = `${space.prefix}/change-requests/${cr.id}`;
    const keys = await blockKeys(s, `${base}/content/page/p-guide`);
    const node = keys.get('Run the installer.')!;
    expect(node).toMatch(/^b[0-9a-f]{16}$/);
    const c = await postComment(s, base, { body: { markdown: 'Which installer?' }, page: 'p-guide', node });
    expect(c.target).toMatchObject({
      changeRequest: cr.id,
      page: { id: 'p-guide', outdated: false },
      node: { id: node, preview: 'Run the installer.' },
    });

    // An edit of another page leaves this page's comment current.
    const tree = await readTree(s, { spaceId: space.id, changeRequestId: cr.id });
    await writeTree(
      s,
      { spaceId: space.id, changeRequestId: cr.id },
      {
        ...tree,
        pages: tree.pages.map((p) => (p.id === 'p-other' ? { ...p, title: 'Other, renamed' } : p)),
      },
    );
    expect((await s.request('GET', `${base}/comments/${c.id}`)).body.target.page.outdated).toBe(false);

    // Lines added above the block and another block changed: the page is outdated, the node id stays.
    const edited = GUIDE.replace('# Guide\n\n', '# Guide\n\nA new opening line.\n\n').replace(
      'First paragraph.',
      'First paragraph, reworded.',
    );
    const tree2 = await readTree(s, { spaceId: space.id, changeRequestId: cr.id });
    await writeTree(
      s,
      { spaceId: space.id, changeRequestId: cr.id },
      {
        ...tree2,
        pages: await Promise.all(
          tree2.pages.map(async (p) => (p.id === 'p-guide' ? { ...p, document: await storeMarkdown(s, edited) } : p)),
        ),
      },
    );
    const after = await s.request('GET', `${base}/comments/${c.id}`);
    expectSpec(after, 'GET', CR_COMMENT, 200);
    expect(after.body.target.page.outdated).toBe(true);
    expect((await blockKeys(s, `${base}/content/page/p-guide`)).get('Run the installer.')).toBe(node);
    // A new comment on the same block uses the same id.
    const again = await postComment(s, base, { body: { markdown: 'Still?' }, page: 'p-guide', node });
    expect(again.target.page.outdated).toBe(false);
    // Main's copy of the page is untouched: the space still has the block, and no comment.
    expect((await blockKeys(s, `${space.prefix}/content/page/p-guide`)).get('Run the installer.')).toBe(node);
  });

  it('a node of another page, or of the CR only, is a 400 on the space', async () => {
    const space = await commentedSpace(s);
    const keys = await blockKeys(s, `${space.prefix}/content/page/p-guide`);
    expectError(
      await s.request('POST', `${space.prefix}/comments`, {
        body: { body: { markdown: 'x' }, page: 'p-other', node: keys.get('Run the installer.') },
      }),
      400,
      'body.node',
    );
    const cr = await openChangeRequest(s, space.id);
    const tree = await readTree(s, { spaceId: space.id, changeRequestId: cr.id });
    await writeTree(
      s,
      { spaceId: space.id, changeRequestId: cr.id },
      {
        ...tree,
        pages: [...tree.pages, docPage('p-new', 'New', { document: await storeMarkdown(s, 'Only in the CR.\n') })],
      },
    );
    expectError(
      await s.request('POST', `${space.prefix}/comments`, { body: { body: { markdown: 'x' }, page: 'p-new' } }),
      400,
      'page p-new not found in space',
    );
    const onCr = await postComment(s, `${space.prefix}/change-requests/${cr.id}`, { body: { markdown: 'ok' }, page: 'p-new' });
    expect(onCr.target.page).toMatchObject({ id: 'p-new', title: 'New', path: 'new' });
  });

  it('a comment whose page was removed still names it (as it was) and is outdated', async () => {
    const space = await commentedSpace(s);
    const c = await postComment(s, space.prefix, { body: { markdown: 'about Other' }, page: 'p-other' });
    const tree = await readTree(s, { spaceId: space.id });
    await writeTree(s, { spaceId: space.id }, { ...tree, pages: tree.pages.filter((p) => p.id !== 'p-other') });
    const got = await s.request('GET', `${space.prefix}/comments/${c.id}`);
    expectSpec(got, 'GET', '/spaces/{spaceId}/comments/{commentId}', 200);
    expect(got.body.target.page).toMatchObject({ id: 'p-other', title: 'Other', path: 'other', outdated: true });
  });

  it('merging keeps the change request comments readable on it, and the counts stay true', async () => {
    const space = await commentedSpace(s);
    const cr = await openChangeRequest(s, space.id);
    const base = `${space.prefix}/change-requests/${cr.id}`;
    const a = await postComment(s, base, { body: { markdown: 'open one' }, page: 'p-guide' });
    const b = await postComment(s, base, { body: { markdown: 'resolved one' } });
    await s.request('PUT', `${base}/comments/${b.id}`, { body: { resolved: true } });
    await postComment(s, space.prefix, { body: { markdown: 'on main' } });
    expect(await counts(s, space.id, cr.id)).toEqual({ space: 1, cr: 1 });
    const merged = await s.request('POST', `${base}/merge`);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(await counts(s, space.id, cr.id)).toEqual({ space: 1, cr: 1 });
    const list = await s.request('GET', `${base}/comments`);
    expect(list.body.items.map((c: { id: string }) => c.id).sort()).toEqual([a.id, b.id].sort());
    await s.request('PUT', `${base}/comments/${a.id}`, { body: { resolved: true } });
    expect(await counts(s, space.id, cr.id)).toEqual({ space: 1, cr: 0 });
    await s.request('PUT', `${base}/comments/${a.id}`, { body: { resolved: false } });
    expect(await counts(s, space.id, cr.id)).toEqual({ space: 1, cr: 1 });
    const onSpace = await s.request('GET', `${space.prefix}/comments`);
    expect(onSpace.body.items.map((c: { body: { markdown: string } }) => c.body.markdown)).toEqual(['on main']);
  });

  it('comments of a purged space are removed with it', async () => {
    const space = await commentedSpace(s);
    const c = await postComment(s, space.prefix, { body: { markdown: 'x' } });
    await s.request('POST', `${space.prefix}/comments/${c.id}/replies`, { body: { body: { markdown: 'y' } } });
    await s.request('PUT', `${space.prefix}/comments/${c.id}`, { body: { addedReactions: ['👍'] } });
    expect((await s.request('DELETE', space.prefix)).status).toBe(205);
    const { purgeSpace } = await import('../../src/server/jobs/purge-space.js');
    await purgeSpace(s.server.db.kysely, { spaceId: space.id }, new Date(Date.now() + 8 * 24 * 3600 * 1000));
    const db = s.server.db.kysely;
    expect(await db.selectFrom('comments').select('id').where('space_id', '=', space.id).execute()).toEqual([]);
    expect(await db.selectFrom('comment_replies').select('id').where('comment_id', '=', c.id).execute()).toEqual([]);
    expect(await db.selectFrom('comment_reactions').select('emoji').where('subject_id', '=', c.id).execute()).toEqual([]);
  });
});

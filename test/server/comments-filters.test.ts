import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectSpec } from '../helpers/expect-spec.js';
import { bootstrapUserId } from '../helpers/spaces.js';
import { CR_COMMENTS, SPACE_COMMENTS, commentedSpace, openChangeRequest, postComment } from '../helpers/comments.js';

describe.each(testDialects())('comment listings: filters, order, paging (%s)', (dialect) => {
  let s: TestServer;
  let prefix: string;
  let ids: string[];
  let me: string;
  let other: { id: string; token: string };
  let third: { id: string; token: string };
  beforeAll(async () => {
    s = await startServer(dialect);
    me = await bootstrapUserId(s);
    other = await s.user({ org: s.orgId, role: 'comment' });
    third = await s.user({ org: s.orgId, role: 'comment' });
    const space = await commentedSpace(s);
    prefix = space.prefix;
    // c0..c5, one second apart: authors me, other, third, me, other, third; pages alternate.
    ids = [];
    const tokens = [undefined, other.token, third.token];
    for (let i = 0; i < 6; i += 1) {
      s.clock.advance(1000);
      const c = await postComment(s, prefix, { body: { markdown: `c${i}` }, page: i % 2 === 0 ? 'p-guide' : 'p-other' }, tokens[i % 3]);
      ids.push(c.id);
    }
    await s.request('PUT', `${prefix}/comments/${ids[1]}`, { body: { resolved: true } });
    await s.request('PUT', `${prefix}/comments/${ids[4]}`, { body: { resolved: true } });
  });
  afterAll(async () => {
    await s?.close();
  });

  const list = async (query: string) => {
    const res = await s.request('GET', `${prefix}/comments${query}`);
    expectSpec(res, 'GET', SPACE_COMMENTS, 200);
    return res.body as { items: { id: string; body: { markdown: string } }[]; count: number; next?: { page: string } };
  };
  const names = (items: { body: { markdown: string } }[]) => items.map((c) => c.body.markdown);

  it('newest first by default, every status', async () => {
    expect(names((await list('')).items)).toEqual(['c5', 'c4', 'c3', 'c2', 'c1', 'c0']);
    expect(names((await list('?status=all')).items)).toHaveLength(6);
  });

  it('order=asc lists oldest first', async () => {
    expect(names((await list('?order=asc')).items)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
  });

  it('status=open and status=resolved', async () => {
    expect(names((await list('?status=open')).items)).toEqual(['c5', 'c3', 'c2', 'c0']);
    expect(names((await list('?status=resolved')).items)).toEqual(['c4', 'c1']);
  });

  it('targetPage keeps the comments on that page', async () => {
    expect(names((await list('?targetPage=p-other&order=asc')).items)).toEqual(['c1', 'c3', 'c5']);
    expect((await list('?targetPage=p-missing')).items).toEqual([]);
  });

  it('authors takes one or several user ids', async () => {
    expect(names((await list(`?authors=${other.id}`)).items)).toEqual(['c4', 'c1']);
    expect(names((await list(`?authors=${other.id}&authors=${me}&order=asc`)).items)).toEqual(['c0', 'c1', 'c3', 'c4']);
    expect(names((await list(`?authors=${third.id}&status=open&targetPage=p-guide`)).items)).toEqual(['c2']);
  });

  it('pages of `limit` items follow next.page to the end, in both orders, with filters kept', async () => {
    for (const [order, expected] of [
      ['desc', ['c5', 'c3', 'c2', 'c0']],
      ['asc', ['c0', 'c2', 'c3', 'c5']],
    ] as const) {
      const seen: string[] = [];
      let query = `?limit=3&status=open&order=${order}`;
      for (let guard = 0; guard < 5; guard += 1) {
        const page = await list(query);
        seen.push(...names(page.items));
        if (!page.next) break;
        expect(page.count).toBe(3);
        query = `?limit=3&status=open&order=${order}&page=${page.next.page}`;
      }
      expect(seen).toEqual(expected);
    }
  });

  it('a change request listing takes the same filters', async () => {
    const space = await commentedSpace(s);
    const cr = await openChangeRequest(s, space.id);
    const base = `${space.prefix}/change-requests/${cr.id}`;
    await postComment(s, base, { body: { markdown: 'x' }, page: 'p-guide' });
    s.clock.advance(1000);
    await postComment(s, base, { body: { markdown: 'y' } }, other.token);
    const res = await s.request('GET', `${base}/comments?authors=${other.id}&status=open&order=asc&limit=1&format=markdown`);
    expectSpec(res, 'GET', CR_COMMENTS, 200);
    expect(names(res.body.items)).toEqual(['y']);
    expect(res.body.next).toBeUndefined();
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { commentedSpace, postComment } from '../helpers/comments.js';
import { expectAnsweredDuringWork, whileAttacked } from '../helpers/liveness.js';
import { PARSE_LIMITS } from '../../src/server/parse/limits.js';

// Issue 25, item 1: a comment's markdown (up to 20,000 characters) is parsed as a page's is,
// off the event loop and once.
describe.each(testDialects())('comment bodies as documents (%s)', (dialect) => {
  let s: TestServer;
  const budget = PARSE_LIMITS.budgetMs;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(() => {
    PARSE_LIMITS.budgetMs = budget;
  });

  it('format=document parses `*a` x 10,000 on a worker while other requests answer, then serves it from its facts', async () => {
    const space = await commentedSpace(s);
    // Facts are kept per text in each process (src/server/store/document-facts.ts): the dialect's
    // name makes the text new to this process, so the read must parse it (20,000 characters at most).
    await postComment(s, space.prefix, { body: { markdown: `${'*a'.repeat(9_990)}\n\n${dialect}` } });
    await postComment(s, space.prefix, { body: { markdown: 'plain **bold**' } });
    const { result, ...work } = await whileAttacked(s, () => s.request('GET', `${space.prefix}/comments?format=document`));
    expect(result.status).toBe(200);
    expect(result.body.items.map((c: { body: { document: { object: string } } }) => c.body.document.object)).toEqual([
      'document',
      'document',
    ]);
    expectAnsweredDuringWork(work);
    // No parse is allowed now: the listing must come from what the first read stored.
    PARSE_LIMITS.budgetMs = 0;
    const again = await s.request('GET', `${space.prefix}/comments?format=document`);
    expect(again.status).toBe(200);
    expect(again.body.items).toEqual(result.body.items);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { expectAnsweredDuringWork, whileAttacked } from '../helpers/liveness.js';
import { PARSE_LIMITS } from '../../src/server/parse/limits.js';

// Issue 25, item 3: a PDF is rendered once per revision, off the event loop.
describe.each(testDialects())('PDF rendering (%s)', (dialect) => {
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

  it('renders a long page on a worker while other requests answer, then serves the same revision from its cache', async () => {
    const space = await createSpace(s, { title: 'Long' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Long read' } });
    const content = `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`;
    const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(8);
    const markdown = Array.from({ length: 800 }, (_, i) => `## Part ${i}\n\n${paragraph}\n`).join('\n');
    expect(
      (await s.request('POST', content, { body: { changes: [{ operation: 'insert_page', title: 'Long', document: { markdown } }] } }))
        .status,
    ).toBe(200);
    const pdf = `/v1/spaces/${space.id}/change-requests/${cr.body.id}/pdf`;
    const { result, ...work } = await whileAttacked(s, () => s.request('GET', pdf));
    expect(result.status).toBe(200);
    expectAnsweredDuringWork(work);

    // Any render now would be refused at once: the same revision must come from the cache.
    PARSE_LIMITS.budgetMs = 0;
    const again = await s.request('GET', pdf);
    expect(again.status).toBe(200);
    expect(again.body.url.split('?')[0]).toBe(result.body.url.split('?')[0]);
    // A write parses its documents within the same budget: refused with 422 when it is spent. The
    // document is the long one, so its parse cannot finish before a 0 ms timer fires (a one-word
    // page sometimes did, on a fast machine, and was stored).
    expect(
      (
        await s.request('POST', content, {
          body: { changes: [{ operation: 'insert_page', title: 'More', document: { markdown } }] },
        })
      ).status,
    ).toBe(422);
    // A new revision is a new PDF, rendered (and here refused by the spent budget, with 422).
    PARSE_LIMITS.budgetMs = budget;
    expect(
      (
        await s.request('POST', content, {
          body: { changes: [{ operation: 'insert_page', title: 'More', document: { markdown: 'more' } }] },
        })
      ).status,
    ).toBe(200);
    PARSE_LIMITS.budgetMs = 0;
    expectError(await s.request('GET', pdf), 422, /took longer than 0 s to render/);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, testDialects, type TestServer } from '../../helpers/server.js';
import { WebClient } from '../../helpers/web.js';
import { spaceWithPages } from '../../helpers/web-content.js';
import { createSpace } from '../../helpers/spaces.js';
import { readTree, storeMarkdown, writeTree } from '../../helpers/content.js';
import { PARSE_LIMITS } from '../../../src/server/parse/limits.js';
import { expectAnsweredDuringWork, whileAttacked } from '../../helpers/liveness.js';
import { PROCESS_TEST_MS } from '../../helpers/patience.js';

// Pathological documents written and parsed on workers (several a test), beside the other test file's work:
// a test took 80 s beside a second copy at load 10 (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

// Web pages render markdown on the parse pool's workers within the parse budget (render-cache.ts):
// a first render of hostile markdown holds no other request, and past the budget it is a 422 page.
// `*a` repeated: micromark's tokenizer is superlinear on it (docs/security.md). 10,000 repeats take
// 2.7 s to parse on a quiet 2-core machine, long enough that a render on the event loop would fail
// the 1 s bound, and short enough that a render within the 10 s budget is the usual answer.
const HOSTILE_REPEATS = 10_000;

describe.each(testDialects())('web pages of hostile markdown (%s)', (dialect) => {
  let server: TestServer;
  let web: WebClient;
  const budget = PARSE_LIMITS.budgetMs;
  beforeAll(async () => {
    server = await startServer(dialect);
    web = new WebClient(server.url);
    await web.signIn(server.token);
  });
  afterAll(async () => server?.close());
  afterEach(() => {
    PARSE_LIMITS.budgetMs = budget;
  });

  /**
   * Puts `markdown` in place of a page's document as it is stored. A write through the API parses it
   * first, and beside a second copy of the suite at load 8 that parse of `*a` x 10,000 once ran past
   * the tests' 60 s budget (a 422 before the test began; docs/reliability.md): what is tested here is
   * the render, so the setup does not parse.
   */
  async function storeAsPage(target: { spaceId: string; changeRequestId?: string }, title: string, markdown: string) {
    const tree = await readTree(server, target);
    const document = await storeMarkdown(server, markdown);
    const pages = tree.pages.map((p) => (p.title === title ? { ...p, document } : p));
    expect(pages.filter((p) => p.document === document)).toHaveLength(1);
    await writeTree(server, target, { ...tree, pages });
  }

  const hostileSpace = async (markdown: string) => {
    const written = await spaceWithPages(server, [
      { title: 'Fine', markdown: '# Fine\n\nPlain **zebracorn** words.\n' },
      { title: 'Hostile', markdown: 'To be replaced.\n' },
    ]);
    await storeAsPage({ spaceId: written.space.id }, 'Hostile', markdown);
    return written;
  };

  it('renders `*a` x 10,000 on a worker the first time it is asked: GET /v1/user answers meanwhile', async () => {
    const { space, ids } = await hostileSpace('*a'.repeat(HOSTILE_REPEATS));
    PARSE_LIMITS.budgetMs = 10_000; // the server's own figure (test/setup-limits.ts raises it for the other tests)
    const page = `/app/spaces/${space.id}/pages/${ids.get('Hostile')}`;
    const { result, ...work } = await whileAttacked(server, () => web.get(page));
    expect([200, 422]).toContain(result.status);
    expect(result.headers.get('content-type')).toContain('text/html');
    if (result.status === 200) expect(result.text.includes('<p><em>a</em>a<em>a</em>a')).toBe(true);
    else expect(result.text).toMatch(/this page took longer than 10 s to render and was stopped/);
    expectAnsweredDuringWork(work);
  });

  it("renders a change request's diff of `*a` x 10,000 on a worker: GET /v1/user answers meanwhile", async () => {
    const space = await createSpace(server, { title: 'Diffs' });
    const cr = await server.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Hostile' } });
    const changes = [{ operation: 'insert_page', title: 'Hostile', document: { markdown: 'To be replaced.\n' } }];
    const write = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, { body: { changes } });
    expect(write.status).toBe(200);
    await storeAsPage({ spaceId: space.id, changeRequestId: cr.body.id }, 'Hostile', '*a'.repeat(HOSTILE_REPEATS));
    PARSE_LIMITS.budgetMs = 10_000;
    const { result, ...work } = await whileAttacked(server, () => web.get(`/app/spaces/${space.id}/change-requests/${cr.body.number}`));
    expect([200, 422]).toContain(result.status);
    if (result.status === 200) expect(result.text.includes('<h4>After</h4><p><em>a</em>a<em>a</em>a')).toBe(true);
    else expect(result.text).toMatch(/this page took longer than 10 s to render and was stopped/);
    expectAnsweredDuringWork(work);
  });

  it("answers a 422 error page past the budget, keeps no refusal, and still renders the space's other pages", async () => {
    // The page past the budget is `*a` x 40,000 (11 s to parse on a quiet 2-core machine): x 10,000
    // parses in well under a second on a fast one, too close to 0.2 s for a test to count on.
    const { space, ids } = await hostileSpace('*a'.repeat(4 * HOSTILE_REPEATS));
    PARSE_LIMITS.budgetMs = 200;
    const page = `/app/spaces/${space.id}/pages/${ids.get('Hostile')}`;
    const { result, ...work } = await whileAttacked(server, () => web.get(page));
    expect(result.status).toBe(422);
    expect(result.headers.get('content-type')).toContain('text/html');
    expect(result.text).toContain('this page took longer than 0.2 s to render and was stopped; simplify the page&#39;s markdown');
    expectAnsweredDuringWork(work);
    PARSE_LIMITS.budgetMs = budget;
    const fine = await web.get(`/app/spaces/${space.id}/pages/${ids.get('Fine')}`);
    expect(fine.status).toBe(200);
    expect(fine.text).toContain('<strong>zebracorn</strong>');
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContentTree } from '../../src/model/index.js';
import { lineMergeCost, mergeText } from '../../src/content/index.js';
import { getText } from '../../src/server/store/blobs.js';
import { PARSE_LIMITS } from '../../src/server/parse/limits.js';
import { MAIN_THREAD_MERGE_COST } from '../../src/server/revisions/documents.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';
import { docPage, readTree, storeMarkdown, writeTree } from '../helpers/content.js';
import { expectAnsweredDuringWork, whileAttacked } from '../helpers/liveness.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';

// Pathological documents written and parsed on workers (several a test), beside the other test file's work:
// a test took 80 s beside a second copy at load 10 (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/**
 * 512 KiB of one-letter lines, `a` or `b` at random: diff3's longest-common-subsequence search
 * is cubic on repeated lines, so merging three of these would take hours (two 4 KiB ones take
 * seconds, docs/security.md).
 */
function letters(seed: number, bytes = 512 * 1024): string {
  let x = seed;
  const lines: string[] = [];
  for (let size = 0; size + 2 <= bytes; size += 2) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    lines.push(x & 0x10000 ? 'a\n' : 'b\n');
  }
  return lines.join('');
}

/** An ordinary page of `n` paragraphs, blank lines between them, `edit` applied to some. */
const paragraphs = (n: number, edit: (i: number, text: string) => string = (_, t) => t) =>
  Array.from({ length: n }, (_, i) => edit(i, `Paragraph ${i} says lorem ipsum dolor sit amet.`)).join('\n\n') + '\n';

// Issue 25: a change request's merge and update merge documents line by line (diff3); a costly
// line merge runs on the parse pool within the parse budget, never on the event loop.
describe.each(testDialects())('line merges of hostile documents (%s)', (dialect) => {
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

  const tree = (document: string): ContentTree => ({
    pages: [docPage('hostile', 'Hostile', { document })],
    files: [],
    variables: {},
    reusableContents: [],
  });

  /** Main holds `base`; then a change request writes `cr` and main moves on to `main`. */
  async function setup(texts: { base: string; main: string; cr: string }) {
    const space = await createSpace(s);
    await writeTree(s, { spaceId: space.id }, tree(await storeMarkdown(s, texts.base)));
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Hostile' } });
    expect(cr.status).toBe(201);
    await writeTree(s, { spaceId: space.id, changeRequestId: cr.body.id }, tree(await storeMarkdown(s, texts.cr)));
    await writeTree(s, { spaceId: space.id }, tree(await storeMarkdown(s, texts.main)));
    return { spaceId: space.id as string, crId: cr.body.id as string };
  }
  const act = (t: { spaceId: string; crId: string }, action: 'merge' | 'update') =>
    s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/${action}`);

  it.each(['merge', 'update'] as const)(
    '%s of three 512 KiB documents of repeated lines: GET /v1/user answers while it runs; past the budget, 422',
    async (action) => {
      const t = await setup({ base: letters(1), main: letters(2), cr: letters(3) });
      PARSE_LIMITS.budgetMs = 10_000; // the server's own figure (test/setup-limits.ts raises it for the other tests)
      const { result, ...work } = await whileAttacked(s, () => act(t, action));
      expect([200, 409, 422]).toContain(result.status);
      if (result.status === 422) {
        expect(result.body.error.message).toMatch(/the line merge of the documents both sides changed took longer than 10 s to run/);
      }
      expectAnsweredDuringWork(work);
    },
  );

  it('a line merge done on a worker gives what mergeText gives: clean, stored with its facts; or 409', async () => {
    const base = paragraphs(300);
    const main = paragraphs(300, (i, p) => (i % 7 === 1 ? `${p} Main's edit.` : p));
    const cr = paragraphs(300, (i, p) => (i % 7 === 4 ? `## Heading ${i} from the change request` : p));
    // Costly enough to leave the event loop (blank lines repeat), cheap enough to finish.
    expect(lineMergeCost(base, main, cr)).toBeGreaterThan(MAIN_THREAD_MERGE_COST);
    const expected = mergeText(base, main, cr);
    expect(expected.kind).toBe('clean');

    const t = await setup({ base, main, cr });
    const merged = await act(t, 'merge');
    expect(merged.status).toBe(200);
    const sha = (await readTree(s, { spaceId: t.spaceId })).pages[0]!.document!;
    expect(await getText(s.server.db.kysely, sha)).toBe((expected as { text: string }).text);
    const facts = await s.server.db.kysely.selectFrom('document_facts').select('facts').where('sha256', '=', sha).executeTakeFirst();
    expect(facts?.facts).toContain('Heading 4 from the change request');

    // Both sides rewrite paragraph 8.
    const other = paragraphs(300, (i, p) => (i === 8 ? 'Other words.' : p));
    expect(mergeText(base, main, other).kind).toBe('conflict');
    const clash = await setup({ base, main, cr: other });
    const refused = await act(clash, 'merge');
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('page "Hostile" (hostile): both sides changed the same lines of its document');
  });
});

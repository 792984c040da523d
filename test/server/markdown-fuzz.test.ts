import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';
import { PARSE_LIMITS } from '../../src/server/parse/limits.js';
import { whileAttacked } from '../helpers/liveness.js';

/** The patterns the issue found superlinear or slow, each a unit that repeats. */
const PATTERNS = [
  '*a',
  '`',
  '``a',
  '_*',
  '~a',
  '[a]',
  '[a](b)',
  '| a | b |\n|---|---|\n',
  '[a]: b\n',
  '# h\n',
  '> ',
  '- ',
  '<a>',
  '![a](b',
];

/** A document made of runs of pathological units, up to about 30,000 characters. */
const hostileMarkdown = fc
  .array(fc.record({ unit: fc.constantFrom(...PATTERNS), times: fc.integer({ min: 1, max: 6_000 }) }), { minLength: 1, maxLength: 4 })
  .map((runs) =>
    runs
      .map(({ unit, times }) => unit.repeat(times))
      .join('\n')
      .slice(0, 30_000),
  );

describe.each(testDialects())('fuzzed pathological markdown (%s)', (dialect) => {
  let s: TestServer;
  let t: { spaceId: string; crId: string };
  const budget = PARSE_LIMITS.budgetMs;
  beforeAll(async () => {
    s = await startServer(dialect);
    const space = await createSpace(s, { title: 'Fuzz' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Fuzz' } });
    t = { spaceId: space.id, crId: cr.body.id };
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(() => {
    PARSE_LIMITS.budgetMs = budget;
  });

  it('answers every write 200 or a clear 4xx, each parse announced as work on a worker', async () => {
    // A shorter budget keeps the run short; what is checked is the answer and the liveness.
    PARSE_LIMITS.budgetMs = 3_000;
    await fc.assert(
      fc.asyncProperty(hostileMarkdown, async (markdown) => {
        const { result, ...work } = await whileAttacked(s, () =>
          s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${t.crId}/content`, {
            body: { changes: [{ operation: 'insert_page', title: 'Fuzz', document: { markdown } }] },
          }),
        );
        expect([200, 400, 413, 422]).toContain(result.status);
        if (result.status !== 200) {
          expect(result.body.error.code).toBe(result.status);
          expect(typeof result.body.error.message).toBe('string');
        }
        // Every parse is announced as work (on a worker thread); that polls are answered while
        // such a parse runs is shown on the long ones (markdown-hostile.test.ts): many generated
        // documents parse too fast to count polls during them.
        if (result.status === 200 || result.status === 422) expect(work.works).toBeGreaterThan(0);
      }),
      { numRuns: 10 },
    );
  }, 300_000);
});

import { afterEach, describe, expect, it } from 'vitest';
import { PARSE_LIMITS } from '../../src/server/parse/limits.js';
import { runParse } from '../../src/server/parse/pool.js';

describe('the parse budget', () => {
  const budget = PARSE_LIMITS.budgetMs;
  afterEach(() => {
    PARSE_LIMITS.budgetMs = budget;
  });

  it('refuses every task when none is left, however small the task (no race with a 0 ms timer)', async () => {
    PARSE_LIMITS.budgetMs = 0;
    // Many tiny tasks: with the timer deciding, some answered first and were taken.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => runParse({ kind: 'facts', texts: ['one word'] }, 'a tiny document')),
    );
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({
        code: 'document_too_complex',
        message: expect.stringMatching(/^a tiny document took longer than 0 s to parse/),
      });
    }
    PARSE_LIMITS.budgetMs = budget;
    const { facts } = await runParse({ kind: 'facts', texts: ['one word'] }, 'a tiny document');
    expect(facts).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, retryDelay, serverDelay, type AttemptOutcome } from '../../src/client/index.js';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');
const ctx = (over: Partial<{ retried: number; idempotent: boolean; random: number }> = {}) => ({
  retried: 0,
  idempotent: true,
  now: NOW,
  random: 0.5,
  ...over,
});
const answer = (status: number, headers: Record<string, string> = {}): AttemptOutcome => ({ kind: 'response', status, headers });
const failure = (code: string): AttemptOutcome => ({ kind: 'error', code });

describe('retry policy', () => {
  it.each([
    // [outcome, idempotent, retried?]
    ['GET 429', answer(429), true, true],
    ['GET 502', answer(502), true, true],
    ['GET 503', answer(503), true, true],
    ['GET 504', answer(504), true, true],
    ['GET 500', answer(500), true, false],
    ['GET 200', answer(200), true, false],
    ...[400, 401, 403, 404, 409, 413].map((s) => [`GET ${s}`, answer(s), true, false] as const),
    ['GET reset', failure('ECONNRESET'), true, true],
    ['GET socket', failure('UND_ERR_SOCKET'), true, true],
    ['GET refused', failure('ECONNREFUSED'), true, true],
    ['GET unknown error', failure('ERR_SOMETHING'), true, false],
    ['POST 429', answer(429), false, true],
    ['POST 503 + Retry-After', answer(503, { 'retry-after': '3' }), false, true],
    ['POST 503', answer(503), false, false],
    ['POST 502', answer(502), false, false],
    ['POST 504', answer(504), false, false],
    ['POST reset', failure('ECONNRESET'), false, false],
    ['POST socket closed', failure('UND_ERR_SOCKET'), false, false],
    ['POST refused', failure('ECONNREFUSED'), false, true],
    ['POST connect timeout', failure('UND_ERR_CONNECT_TIMEOUT'), false, true],
  ] as const)('%s: retried=%s', (_name, outcome, idempotent, retried) => {
    expect(retryDelay(DEFAULT_RETRY_POLICY, outcome, ctx({ idempotent })) !== undefined).toBe(retried);
  });

  it('stops after `retries` retries', () => {
    expect(retryDelay(DEFAULT_RETRY_POLICY, answer(503), ctx({ retried: 4 }))).toBeDefined();
    expect(retryDelay(DEFAULT_RETRY_POLICY, answer(503), ctx({ retried: 5 }))).toBeUndefined();
    expect(retryDelay({ ...DEFAULT_RETRY_POLICY, retries: 0 }, answer(503), ctx())).toBeUndefined();
  });

  it('waits at least a second, doubling, after a 429 whose reset is already past by the local clock', () => {
    // Clock skew: the server's window ended "5 s ago" here; retrying at once would burn every retry.
    const skewed = answer(429, { 'x-ratelimit-reset': String(NOW / 1000 - 5) });
    const at = (retried: number) => retryDelay(DEFAULT_RETRY_POLICY, skewed, ctx({ retried, random: 0 }))!;
    expect([0, 1, 2, 3].map(at)).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelay(DEFAULT_RETRY_POLICY, answer(429, { 'retry-after': '0' }), ctx({ random: 0 }))).toBe(1000);
    expect(retryDelay({ ...DEFAULT_RETRY_POLICY, retries: 20 }, skewed, ctx({ retried: 10 }))).toBe(30_000);
    // A reset in the future is still honoured as it is.
    expect(retryDelay(DEFAULT_RETRY_POLICY, answer(429, { 'x-ratelimit-reset': String(NOW / 1000 + 3) }), ctx())).toBe(3000);
  });

  it('backs off with full jitter under a doubling ceiling capped by maxDelay', () => {
    const at = (retried: number, random: number) => retryDelay(DEFAULT_RETRY_POLICY, answer(503), ctx({ retried, random }));
    expect([0, 1, 2, 3].map((n) => at(n, 0.999))).toEqual([499, 999, 1998, 3996]);
    expect(at(3, 0)).toBe(0);
    expect(retryDelay({ ...DEFAULT_RETRY_POLICY, retries: 20 }, answer(503), ctx({ retried: 10, random: 0.999 }))).toBe(
      Math.floor(0.999 * 30_000),
    );
  });

  it('prefers Retry-After, then X-RateLimit-Reset, capped by maxDelay', () => {
    expect(retryDelay(DEFAULT_RETRY_POLICY, answer(429, { 'retry-after': '4', 'x-ratelimit-reset': String(NOW / 1000 + 60) }), ctx())).toBe(
      4000,
    );
    expect(retryDelay(DEFAULT_RETRY_POLICY, answer(429, { 'x-ratelimit-reset': String(NOW / 1000 + 9) }), ctx())).toBe(9000);
    expect(retryDelay(DEFAULT_RETRY_POLICY, answer(429, { 'retry-after': '3600' }), ctx())).toBe(30_000);
  });

  it('reads the server delay forms', () => {
    expect(serverDelay({ 'retry-after': '0' }, NOW, 429)).toBe(0);
    expect(serverDelay({ 'retry-after': '1.5' }, NOW, 429)).toBe(1500);
    expect(serverDelay({ 'retry-after': 'Sat, 01 Mar 2025 12:00:30 GMT' }, NOW, 429)).toBe(30_000);
    expect(serverDelay({ 'retry-after': 'Sat, 01 Mar 2025 11:00:00 GMT' }, NOW, 429)).toBe(0);
    expect(serverDelay({ 'retry-after': 'soon' }, NOW, 429)).toBeUndefined();
    expect(serverDelay({ 'x-ratelimit-reset': String(NOW / 1000 - 5) }, NOW, 429)).toBe(0);
    expect(serverDelay({ 'x-ratelimit-reset': '20' }, NOW, 429)).toBe(20_000);
    expect(serverDelay({}, NOW, 429)).toBeUndefined();
    // The reset time is the rate window's: it says nothing to a 503.
    expect(serverDelay({ 'x-ratelimit-reset': '20' }, NOW, 503)).toBeUndefined();
    expect(serverDelay({ 'retry-after': '2', 'x-ratelimit-reset': '20' }, NOW, 503)).toBe(2000);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from '../../src/daemon/backoff.js';

const policyArb: fc.Arbitrary<BackoffPolicy> = fc.record({
  initialMs: fc.integer({ min: 1, max: 10_000 }),
  maxMs: fc.integer({ min: 1, max: 1_000_000 }),
});
const randomArb = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const failuresArb = fc.integer({ min: 1, max: 200 });

/** The wait before jitter: doubling from initialMs, never past maxMs. */
const ceiling = (failures: number, policy: BackoffPolicy) => Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(failures - 1, 30));

describe('backoffDelay', () => {
  it('without jitter doubles from initialMs on every failure in a row until maxMs, then stays there', () => {
    fc.assert(
      fc.property(policyArb, failuresArb, (policy, failures) => {
        expect(backoffDelay(failures, 0, policy)).toBe(ceiling(failures, policy));
        const next = backoffDelay(failures + 1, 0, policy);
        expect(next).toBe(Math.min(policy.maxMs, 2 * backoffDelay(failures, 0, policy)));
      }),
    );
  });

  it('takes at most a quarter off the wait, and never waits longer than maxMs', () => {
    fc.assert(
      fc.property(policyArb, failuresArb, randomArb, (policy, failures, random) => {
        const delay = backoffDelay(failures, random, policy);
        const top = ceiling(failures, policy);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeLessThanOrEqual(top);
        expect(delay).toBeLessThanOrEqual(policy.maxMs);
        expect(delay).toBeGreaterThanOrEqual(Math.round(top * 0.75));
        expect(delay).toBeGreaterThan(0);
      }),
    );
  });

  it('grows with the number of failures for one draw of jitter (about doubling until the cap)', () => {
    fc.assert(
      fc.property(policyArb, failuresArb, randomArb, (policy, failures, random) => {
        const now = backoffDelay(failures, random, policy);
        const next = backoffDelay(failures + 1, random, policy);
        expect(next).toBeGreaterThanOrEqual(now);
        if (2 * ceiling(failures, policy) <= policy.maxMs) expect(Math.abs(next - 2 * now)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('shrinks as the draw of jitter grows, so daemons that drew differently come back at different times', () => {
    fc.assert(
      fc.property(policyArb, failuresArb, randomArb, randomArb, (policy, failures, a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(backoffDelay(failures, high, policy)).toBeLessThanOrEqual(backoffDelay(failures, low, policy));
        const top = ceiling(failures, policy);
        if (high - low >= 0.5 && top >= 16) expect(backoffDelay(failures, high, policy)).toBeLessThan(backoffDelay(failures, low, policy));
      }),
    );
  });

  it('treats failures below 1 (zero, negative, fractions) as the first failure', () => {
    const belowOne = fc.oneof(
      fc.constant(0),
      fc.integer({ min: -1_000_000, max: 0 }),
      fc.double({ min: -1e9, max: 1, maxExcluded: true, noNaN: true }),
    );
    fc.assert(
      fc.property(policyArb, belowOne, randomArb, (policy, failures, random) => {
        expect(backoffDelay(failures, random, policy)).toBe(backoffDelay(1, random, policy));
      }),
    );
  });

  it('stays at maxMs for any number of failures however large, without overflowing', () => {
    const many = fc.oneof(fc.integer({ min: 31, max: Number.MAX_SAFE_INTEGER }), fc.constant(Number.MAX_VALUE), fc.constant(Infinity));
    fc.assert(
      fc.property(policyArb, many, randomArb, (policy, failures, random) => {
        expect(backoffDelay(failures, random, policy)).toBe(Math.round(policy.maxMs * (1 - random / 4)));
      }),
    );
  });

  it('by default waits 1 s after the first failure, then 2, 4, ... 32 s, then a minute at most', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map((f) => backoffDelay(f, 0))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
    expect(backoffDelay(1, 0.999_999)).toBe(750);
    expect(backoffDelay(100, 0.5)).toBe(52_500);
    expect(DEFAULT_BACKOFF).toEqual({ initialMs: 1_000, maxMs: 60_000 });
    expect(Object.isFrozen(DEFAULT_BACKOFF)).toBe(true);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Debouncer } from '../../src/daemon/debounce.js';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-01T00:00:00.000Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

/** A debouncer whose flushes are recorded with the (fake) time they happened at. */
function recorded(options: { quietMs: number; maxWaitMs?: number }) {
  const start = Date.now();
  const flushes: { at: number; paths: string[] }[] = [];
  const debouncer = new Debouncer({ ...options, flush: (paths) => flushes.push({ at: Date.now() - start, paths }) });
  return { debouncer, flushes };
}

describe('Debouncer', () => {
  it('hands a burst over once, quietMs after the last event of it', () => {
    const { debouncer, flushes } = recorded({ quietMs: 300 });
    debouncer.touch('/w/a.md');
    vi.advanceTimersByTime(100);
    debouncer.touch('/w/b.md');
    vi.advanceTimersByTime(250);
    debouncer.touch('/w/c.md');
    vi.advanceTimersByTime(299);
    expect(flushes).toEqual([]);
    expect(debouncer.pending).toBe(3);

    vi.advanceTimersByTime(1);
    expect(flushes).toEqual([{ at: 650, paths: ['/w/a.md', '/w/b.md', '/w/c.md'] }]);
    expect(debouncer.pending).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(flushes).toHaveLength(1);
  });

  it('hands over a single event quietMs after it, and the next burst on its own', () => {
    const { debouncer, flushes } = recorded({ quietMs: 200 });
    debouncer.touch('a');
    vi.advanceTimersByTime(1_000);
    debouncer.touch('b');
    vi.advanceTimersByTime(1_000);
    expect(flushes).toEqual([
      { at: 200, paths: ['a'] },
      { at: 1_200, paths: ['b'] },
    ]);
  });

  it('bounds a burst that never ends: maxWaitMs after its first event, then a new burst begins', () => {
    const { debouncer, flushes } = recorded({ quietMs: 100, maxWaitMs: 1_000 });
    for (let t = 0; t < 2_500; t += 50) {
      debouncer.touch(`file-${t % 200}`);
      vi.advanceTimersByTime(50);
    }
    // Events at 0, 50, ..., 2450; the first burst ends at 1000, the second starts at 1000 (an
    // event at that instant) and ends at 2000, the third starts at 2000.
    expect(flushes.map((f) => f.at)).toEqual([1_000, 2_000]);
    expect(flushes[0]!.paths).toEqual(['file-0', 'file-100', 'file-150', 'file-50']);
    vi.advanceTimersByTime(100);
    expect(flushes.map((f) => f.at)).toEqual([1_000, 2_000, 2_550]);
  });

  it('waits at most max(10 × quietMs, 2 s) by default', () => {
    for (const [quietMs, maxWait] of [
      [100, 2_000],
      [150, 2_000],
      [300, 3_000],
      [500, 5_000],
    ] as const) {
      const { debouncer, flushes } = recorded({ quietMs });
      for (let t = 0; t < 2 * maxWait && flushes.length === 0; t += quietMs / 2) {
        debouncer.touch('x');
        vi.advanceTimersByTime(quietMs / 2);
      }
      expect(flushes[0]?.at, `quietMs ${quietMs}`).toBe(maxWait);
      debouncer.cancel();
    }
  });

  it('hands each path over once, sorted, however often and in whatever order it was touched', () => {
    const { debouncer, flushes } = recorded({ quietMs: 50 });
    for (const path of ['b.md', 'a.md', 'b.md', 'guides/z.md', 'a.md', 'guides/a.md', 'B.md']) debouncer.touch(path);
    expect(debouncer.pending).toBe(5);
    vi.advanceTimersByTime(50);
    expect(flushes).toEqual([{ at: 50, paths: ['B.md', 'a.md', 'b.md', 'guides/a.md', 'guides/z.md'] }]);
  });

  it('flushNow hands over at once and drops the timer; with nothing pending it does not call flush', () => {
    const { debouncer, flushes } = recorded({ quietMs: 300 });
    debouncer.flushNow();
    expect(flushes).toEqual([]);

    debouncer.touch('a');
    vi.advanceTimersByTime(10);
    debouncer.flushNow();
    expect(flushes).toEqual([{ at: 10, paths: ['a'] }]);
    vi.advanceTimersByTime(1_000);
    expect(flushes).toHaveLength(1);
    debouncer.flushNow();
    expect(flushes).toHaveLength(1);
  });

  it('cancel stops the timer but keeps what is pending for a final flushNow', () => {
    const { debouncer, flushes } = recorded({ quietMs: 100 });
    debouncer.touch('a');
    debouncer.touch('b');
    debouncer.cancel();
    vi.advanceTimersByTime(10_000);
    expect(flushes).toEqual([]);
    expect(debouncer.pending).toBe(2);

    debouncer.flushNow();
    expect(flushes).toEqual([{ at: 10_000, paths: ['a', 'b'] }]);
    debouncer.cancel();
    expect(debouncer.pending).toBe(0);
  });

  it('a touch from inside flush starts the next burst', () => {
    const flushes: string[][] = [];
    const debouncer: Debouncer = new Debouncer({
      quietMs: 100,
      flush: (paths) => {
        flushes.push(paths);
        if (flushes.length === 1) debouncer.touch('written-by-flush');
      },
    });
    debouncer.touch('a');
    vi.advanceTimersByTime(100);
    expect(flushes).toEqual([['a']]);
    expect(debouncer.pending).toBe(1);
    vi.advanceTimersByTime(100);
    expect(flushes).toEqual([['a'], ['written-by-flush']]);
  });

  it('with quietMs 0 hands over on the next turn of the timers', () => {
    const { debouncer, flushes } = recorded({ quietMs: 0 });
    debouncer.touch('a');
    debouncer.touch('b');
    expect(flushes).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(flushes).toEqual([{ at: 0, paths: ['a', 'b'] }]);
  });

  it.each([-1, Number.NaN, Infinity, -Infinity, '300', undefined])('refuses quietMs %s with a TypeError naming the value', (quietMs) => {
    expect(() => new Debouncer({ quietMs: quietMs as number, flush: () => undefined })).toThrow(
      new TypeError(`quietMs must be a number of milliseconds >= 0, got ${quietMs}`),
    );
  });

  it.each([-1, Number.NaN, '300'])('refuses maxWaitMs %s with a TypeError naming the value', (maxWaitMs) => {
    expect(() => new Debouncer({ quietMs: 10, maxWaitMs: maxWaitMs as number, flush: () => undefined })).toThrow(
      new TypeError(`maxWaitMs must be a number of milliseconds >= 0, got ${maxWaitMs}`),
    );
  });

  it('accepts maxWaitMs Infinity: a burst then ends only when it goes quiet', () => {
    const { debouncer, flushes } = recorded({ quietMs: 100, maxWaitMs: Infinity });
    for (let t = 0; t < 60_000; t += 50) {
      debouncer.touch('x');
      vi.advanceTimersByTime(50);
    }
    expect(flushes).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(flushes).toEqual([{ at: 60_050, paths: ['x'] }]);
  });
});

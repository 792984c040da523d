// `node --import tsx test/bench/line-merge.ts`: the line merge of an ordinary page (paragraphs
// separated by blank lines) edited at two places on each side, diff3 on the whole texts against
// `mergeText` (diff3 on the lines between the common ends), medians of the same run.
import { performance } from 'node:perf_hooks';
import { diff3Merge } from 'node-diff3';
import { lineMergeCost, mergeText, splitLines } from '../../src/content/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const page = (n: number, edit: (i: number, p: string) => string = (_, p) => p) =>
  Array.from({ length: n }, (_, i) => edit(i, `Paragraph ${i} says lorem ipsum dolor sit amet.`)).join('\n\n') + '\n';

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

for (const n of [800, 1700]) {
  const at = (share: number) => Math.floor(n * share);
  const base = page(n);
  const ours = page(n, (i, p) => (i === at(0.3) || i === at(0.55) ? `${p} Ours.` : p));
  const theirs = page(n, (i, p) => (i === at(0.4) || i === at(0.7) ? `${p} Theirs.` : p));
  const whole = () => diff3Merge(splitLines(ours), splitLines(base), splitLines(theirs), { excludeFalseConflicts: true });
  const trimmed = () => mergeText(base, ours, theirs);
  const expected = whole()
    .flatMap((r) => r.ok ?? [])
    .join('');
  const merged = trimmed();
  if (merged.kind !== 'clean' || merged.text !== expected) throw new Error('the merges differ');
  const before: number[] = [];
  const after: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    before.push(time(whole));
    after.push(time(trimmed));
  }
  const kib = (base.length / 1024).toFixed(0);
  console.log(
    `${n} paragraphs, ${kib} KiB: diff3 on the whole ${median(before).toFixed(0)} ms, mergeText ${median(after).toFixed(1)} ms ` +
      `(median of ${ROUNDS}); lineMergeCost ${(lineMergeCost(base, ours, theirs) / 1e6).toFixed(2)} M`,
  );
}

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { diff3Merge, type MergeRegion } from 'node-diff3';
import { commonEnds, diff3Lines, lineMergeCost, mergeText } from '../../src/content/merge/merge-text.js';

/** Adjacent ok regions joined, so regions compare by what they hold. */
function normalise(regions: MergeRegion<string>[]) {
  const out: MergeRegion<string>[] = [];
  for (const region of regions) {
    const last = out[out.length - 1];
    if (region.ok && last?.ok) last.ok = [...last.ok, ...region.ok];
    else if (region.ok) out.push({ ok: [...region.ok] });
    else out.push({ conflict: { a: region.conflict!.a, o: region.conflict!.o, b: region.conflict!.b } } as MergeRegion<string>);
  }
  return out;
}

// Few distinct lines, so lines repeat and alignments are ambiguous; the last line may lack its newline.
const alphabet = fc.constantFrom('a\n', 'b\n', '\n', 'c\n', 'd');
const lines = fc.array(alphabet, { maxLength: 9 });
/** A side derived from the base by a few edits, so the three often share both ends. */
const edited = (base: string[]) =>
  fc.array(fc.tuple(fc.nat(), fc.nat(2), lines), { maxLength: 3 }).map((edits) => {
    const out = [...base];
    for (const [at, remove, insert] of edits) out.splice(at % (out.length + 1), remove, ...insert);
    return out;
  });
const triple = lines.chain((base) => fc.tuple(edited(base), fc.constant(base), edited(base)));

describe('diff3 on the lines between the common ends', () => {
  it('gives the regions diff3 gives on the whole texts', () => {
    fc.assert(
      fc.property(triple, ([ours, base, theirs]) => {
        const whole = diff3Merge(ours, base, theirs, { excludeFalseConflicts: true });
        expect(normalise(diff3Lines(ours, base, theirs))).toEqual(normalise(whole));
      }),
      { numRuns: 20_000 },
    );
  });

  it('trims the paragraphs an edit did not touch', () => {
    const page = (edit: (i: number, p: string) => string) =>
      Array.from({ length: 800 }, (_, i) => edit(i, `Paragraph ${i} says lorem ipsum.`)).join('\n\n') + '\n';
    const base = page((_, p) => p);
    const ours = page((i, p) => (i === 300 ? `${p} Ours.` : p));
    const theirs = page((i, p) => (i === 500 ? `${p} Theirs.` : p));
    const split = (text: string) => text.split(/(?<=\n)/);
    const { prefix, suffix } = commonEnds(split(ours), split(base), split(theirs));
    expect(prefix).toBe(2 * 300 - 1); // the blank line before the edit repeats in the middle
    expect(suffix).toBe(2 * (800 - 500) - 3); // so does the one after
    expect(mergeText(base, ours, theirs)).toEqual({
      kind: 'clean',
      text: page((i, p) => (i === 300 ? `${p} Ours.` : i === 500 ? `${p} Theirs.` : p)),
    });
    // The cost counts the 200 paragraphs between the edits (33 M), not the 800 (some 2,000 M).
    expect(lineMergeCost(base, ours, theirs)).toBeLessThan(50_000_000);
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hasConflictMarkers, mergeText, splitLines } from '../../src/content/merge/merge-text.js';

const line = fc.stringMatching(/^[a-z ]{0,12}$/).map((s) => `${s}\n`);
const doc = fc.array(line, { maxLength: 30 }).map((lines) => lines.join(''));

describe('mergeText', () => {
  it('splitLines keeps every byte', () => {
    fc.assert(fc.property(fc.string(), (text) => splitLines(text).join('') === text));
  });

  it('is the identity when only one side changed, or both changed alike', () => {
    fc.assert(
      fc.property(doc, doc, (base, changed) => {
        expect(mergeText(base, changed, base)).toEqual({ kind: 'clean', text: changed });
        expect(mergeText(base, base, changed)).toEqual({ kind: 'clean', text: changed });
        expect(mergeText(base, changed, changed)).toEqual({ kind: 'clean', text: changed });
      }),
    );
  });

  it('combines edits to lines far apart', () => {
    fc.assert(
      // Lines are made unique: with repeated lines the place of an edit is ambiguous, and diff3
      // may align it elsewhere (still a correct merge, but not this exact text).
      fc.property(
        fc.array(line, { minLength: 6, maxLength: 30 }).map((ls) => ls.map((l, n) => `${n}:${l}`)),
        fc.nat(),
        fc.nat(),
        (lines, i0, j0) => {
          const i = i0 % lines.length;
          const j = j0 % lines.length;
          fc.pre(Math.abs(i - j) > 2);
          const ours = [...lines];
          ours[i] = 'OURS\n';
          const theirs = [...lines];
          theirs[j] = 'THEIRS\n';
          const expected = [...lines];
          expected[i] = 'OURS\n';
          expected[j] = 'THEIRS\n';
          expect(mergeText(lines.join(''), ours.join(''), theirs.join(''))).toEqual({ kind: 'clean', text: expected.join('') });
        },
      ),
    );
  });

  it('marks a line both sides changed differently, and keeps both versions', () => {
    const base = 'title\nshared line\nend\n';
    const result = mergeText(base, 'title\nours wins\nend\n', 'title\ntheirs wins\nend\n', { ours: 'local', theirs: 'remote' });
    expect(result.kind).toBe('conflict');
    expect(result.text).toBe('title\n<<<<<<< local\nours wins\n=======\ntheirs wins\n>>>>>>> remote\nend\n');
    if (result.kind === 'conflict') {
      expect(result.conflicts).toEqual([{ base: 'shared line\n', ours: 'ours wins\n', theirs: 'theirs wins\n' }]);
    }
    expect(hasConflictMarkers(result.text)).toBe(true);
  });

  it('puts markers on their own lines when the last line has no newline', () => {
    const result = mergeText('a\nb', 'a\nx', 'a\ny');
    expect(result.text).toBe('a\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n');
  });

  it('never loses a line of either side in a conflict', () => {
    fc.assert(
      fc.property(doc, doc, doc, (base, ours, theirs) => {
        const result = mergeText(base, ours, theirs);
        if (result.kind === 'clean') return;
        for (const c of result.conflicts) {
          expect(result.text).toContain(c.ours);
          expect(result.text).toContain(c.theirs);
        }
      }),
    );
  });

  it('does not mistake ordinary text for conflict markers', () => {
    expect(hasConflictMarkers('a <<<<<<< b\n>>>>>>>x\n')).toBe(false);
  });
});

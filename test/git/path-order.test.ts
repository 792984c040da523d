import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortTreeItems } from '../../src/git/format/object-format.js';
import { comparePaths } from '../../src/git/format/paths.js';

// The one UTF-8 path order (git's) is computed without encoding; it must be byte order of the
// UTF-8 encodings, including where JavaScript's UTF-16 order differs (beyond U+FFFF).
describe('comparePaths', () => {
  it('is the byte order of the UTF-8 encodings', () => {
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('a', '/', '-', '\u{e000}', '\u{ffff}', '\u{10000}', '\u{1f600}'),
        fc.string({ unit: 'grapheme', maxLength: 1 }),
      ),
    });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(comparePaths(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))));
      }),
    );
  });

  it('puts a character beyond U+FFFF after U+E000 to U+FFFF, as git does', () => {
    expect(comparePaths('\u{1f600}', '\u{ffff}')).toBeGreaterThan(0);
    expect('\u{1f600}' < '\u{ffff}').toBe(true);
  });

  it('orders tree items with a folder as if its name ended in /', () => {
    const items = ['a0', 'a', 'a.md', 'a-b'].map((name) => ({
      name,
      mode: name === 'a' || name === 'a-b' ? '40000' : '100644',
      oid: '0'.repeat(40),
    }));
    expect(sortTreeItems(items).map((i) => i.name)).toEqual(['a-b', 'a.md', 'a', 'a0']);
  });
});

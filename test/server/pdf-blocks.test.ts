import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { textBlocks } from '../../src/content/index.js';
import { renderPdf, winAnsi } from '../../src/server/pdf/render-pdf.js';

describe('textBlocks', () => {
  it('flattens markdown into headings, paragraphs, nested items, code, quotes, rules and table rows', () => {
    const md =
      '# Top\n\nSome *text*.\n\n- a\n  1. b\n  2. c\n- d\n\n> quoted\n\n---\n\n```js\nx()\n```\n\n| h1 | h2 |\n| -- | -- |\n| v1 | v2 |\n';
    expect(textBlocks(md)).toEqual([
      { kind: 'heading', depth: 1, text: 'Top' },
      { kind: 'paragraph', text: 'Some text.' },
      { kind: 'item', depth: 0, marker: '•', text: 'a' },
      { kind: 'item', depth: 1, marker: '1.', text: 'b' },
      { kind: 'item', depth: 1, marker: '2.', text: 'c' },
      { kind: 'item', depth: 0, marker: '•', text: 'd' },
      { kind: 'quote', text: 'quoted' },
      { kind: 'rule' },
      { kind: 'code', text: 'x()' },
      { kind: 'paragraph', text: 'h1 | h2' },
      { kind: 'paragraph', text: 'v1 | v2' },
    ]);
  });

  it('renders any markdown to a PDF without throwing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (md) => {
        const bytes = await renderPdf('t', [{ title: md, blocks: textBlocks(md) }], new Date(0));
        expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      }),
      { numRuns: 30 },
    );
  });
});

describe('winAnsi', () => {
  it('keeps Latin-1, maps typography, and replaces the rest', () => {
    expect(winAnsi('Café “quoted” – 日本 😀')).toBe('Café "quoted" - ?? ?');
  });
});

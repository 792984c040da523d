import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blockNodes, markdownToJsonDocument, nodePreview, NODE_PREVIEW_LENGTH } from '../../src/content/index.js';

const idOf = (markdown: string, text: string) => blockNodes(markdown).find((b) => b.text === text)?.id;

describe('block node ids', () => {
  const page =
    '---\nhidden: true\n---\n# Title\n\nIntro text.\n\n## Setup\n\n- first *item*\n- second\n\n> quoted\n\n```sh\nnpm ci\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';

  it('lists headings, paragraphs (in lists and quotes too), code and tables with their lines; front matter is not a block', () => {
    expect(blockNodes(page).map((b) => [b.text, b.line])).toEqual([
      ['Title', 4],
      ['Intro text.', 6],
      ['Setup', 8],
      ['first item', 10],
      ['second', 11],
      ['quoted', 13],
      ['npm ci', 15],
      ['a | b\n1 | 2'.replace(/\n/, ' '), 19],
    ]);
    for (const b of blockNodes(page)) expect(b.id).toMatch(/^b[0-9a-f]{16}$/);
  });

  it('an id is kept through edits elsewhere, and through markup changes of its own block', () => {
    const id = idOf(page, 'Intro text.');
    const edited = page.replace('## Setup', '## Installation\n\nA new paragraph above.').replace('npm ci', 'npm install');
    expect(idOf(edited, 'Intro text.')).toBe(id);
    expect(idOf(page.replace('Intro text.', '**Intro** text.'), 'Intro text.')).toBe(id);
    expect(idOf(page.replace('Intro text.', '### Intro text.'), 'Intro text.')).toBe(id);
    expect(idOf(page.replace('Intro text.', 'Intro text, changed.'), 'Intro text, changed.')).not.toBe(id);
  });

  it('blocks with the same text get -2, -3 suffixes in reading order', () => {
    const ids = blockNodes('Same.\n\nOther.\n\nSame.\n\nSame.\n').map((b) => b.id);
    expect(ids[2]).toBe(`${ids[0]}-2`);
    expect(ids[3]).toBe(`${ids[0]}-3`);
  });

  it('property: inserting a block with new text anywhere keeps every other id', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z]{1,8}( [a-z]{1,8}){0,3}$/), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        (texts, at) => {
          const before = blockNodes(texts.join('\n\n'));
          const inserted = [...texts];
          inserted.splice(at % (texts.length + 1), 0, 'zz brand new zz');
          const after = new Map(blockNodes(inserted.join('\n\n')).map((b) => [b.text, b.id]));
          for (const b of before) expect(after.get(b.text)).toBe(b.id);
        },
      ),
    );
  });

  it('the JSON document view carries the ids as block keys', () => {
    const doc = markdownToJsonDocument(page);
    const keys = JSON.stringify(doc)
      .match(/"key":"(b[0-9a-f-]+)"/g)
      ?.map((k) => k.slice(7, -1));
    expect(keys).toEqual(blockNodes(page).map((b) => b.id));
  });

  it('previews are cut at the documented length', () => {
    expect(nodePreview('short')).toBe('short');
    const long = nodePreview('é'.repeat(500));
    expect([...long]).toHaveLength(NODE_PREVIEW_LENGTH);
    expect(long.endsWith('…')).toBe(true);
  });
});

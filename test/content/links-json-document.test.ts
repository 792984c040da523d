import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownToJsonDocument } from '../../src/content/markdown/json-document.js';
import { DEFAULT_PAGE_LAYOUT } from '../../src/model/index.js';
import { assertMatchesSpec } from '../helpers/spec.js';

/** A page read carrying `document`: the published schema then checks every block. */
const assertValidDocument = (markdown: string) => {
  const page = {
    id: 'p',
    title: 'T',
    type: 'document',
    kind: 'sheet',
    urls: { app: 'https://x.test/app/p' },
    slug: 't',
    path: 't',
    pages: [],
    layout: DEFAULT_PAGE_LAYOUT,
    tags: [],
    document: markdownToJsonDocument(markdown),
  };
  assertMatchesSpec('GET', '/spaces/{spaceId}/content/page/{pageId}', 200, page);
};

const fragment = fc.constantFrom(
  '# Title',
  '## Section',
  '#### Deep heading',
  'plain *italic* **bold** `code` ~~gone~~ text',
  '[a link](other.md#x)',
  '- item\n- item **two**',
  '1. one\n2. two',
  '- [ ] todo\n- [x] done',
  '> quote\n> - listed',
  '> ```\n> code in quote\n> ```',
  '```js\nconst a = 1;\n\nreturn a;\n```',
  '---',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '<div>html</div>',
  '![img](x.png)',
  '---\ntitle: front\n---',
  '',
  'line one  \nline two',
  '- # heading in a list',
  '[ref]: https://example.com',
);

describe('markdownToJsonDocument', () => {
  it('renders the blocks it knows', () => {
    const doc = markdownToJsonDocument('# Hello\n\nSome **bold** [link](https://a.test).\n\n```sh\nls\npwd\n```\n\n---\n');
    expect(doc.nodes.map((n) => n.type)).toEqual(['heading-1', 'paragraph', 'code', 'divider']);
    expect(doc.nodes[0]).toMatchObject({ meta: { id: 'hello' } });
    expect(doc.nodes[1]!.nodes).toEqual([
      { object: 'text', leaves: [{ object: 'leaf', text: 'Some ', marks: [] }] },
      { object: 'text', leaves: [{ object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }] }] },
      { object: 'text', leaves: [{ object: 'leaf', text: ' ', marks: [] }] },
      {
        object: 'inline',
        type: 'link',
        isVoid: false,
        data: { ref: { kind: 'url', url: 'https://a.test' } },
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'link', marks: [] }] }],
      },
      { object: 'text', leaves: [{ object: 'leaf', text: '.', marks: [] }] },
    ]);
    expect(doc.nodes[2]).toMatchObject({ data: { syntax: 'sh' }, nodes: [{ type: 'code-line' }, { type: 'code-line' }] });
    expect(markdownToJsonDocument('')).toEqual({ object: 'document', data: {}, nodes: [] });
  });

  it('any mix of blocks gives a document the published schema accepts', () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 8 }), (parts) => {
        assertValidDocument(parts.join('\n\n'));
      }),
      { numRuns: 150 },
    );
  });
});

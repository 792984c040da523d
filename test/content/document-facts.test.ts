import { describe, expect, it } from 'vitest';
import {
  blockNodes,
  documentFacts,
  encodeStoredRef,
  extractLinks,
  pageSections,
  parseableTemplate,
  splitTemplate,
  templateToJsonDocument,
  textBlocks,
} from '../../src/content/index.js';

// Facts are derived from one parse at write time and replace the per-read parses: they must
// give exactly what each read derived on its own.
const plain =
  '# Title\n\nIntro with [a link](https://a.test) and ![img](pic.png).\n\n## Part\n\n- item\n- [b][ref]\n\n[ref]: https://b.test\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n```js\ncode\n```\n';
const withRef = `See [the guide](${encodeStoredRef({ kind: 'page', id: 'p1', anchor: 'setup', path: 'guide.md' })}) now.\n\n## Setup\n\ntext\n`;

describe('documentFacts', () => {
  it.each([
    ['plain', plain],
    ['with a stored reference', withRef],
    ['empty', ''],
  ])('gives what each read derived on its own (%s)', (_name, stored) => {
    const parts = splitTemplate(stored);
    const { text, refOf } = parseableTemplate(parts);
    const facts = documentFacts(stored);
    expect(facts.links).toEqual(extractLinks(text).map((l) => refOf(l.url) ?? l.url));
    expect(facts.text).toEqual(pageSections(text));
    expect(facts.textBlocks).toEqual(textBlocks(text));
    expect(facts.blockNodes).toEqual(blockNodes(text));
    expect(facts.document).toEqual(templateToJsonDocument(parts));
  });

  it('keeps a stored reference as a reference, by id', () => {
    expect(documentFacts(withRef).links).toEqual([{ kind: 'page', id: 'p1', anchor: 'setup', path: 'guide.md' }]);
  });
});

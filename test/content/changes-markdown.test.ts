import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFrontMatter, writeFrontMatter } from '../../src/content/index.js';
import { rewriteLinks } from '../../src/content/changes/link-rewrite.js';
import { jsonDocumentToMarkdown } from '../../src/content/changes/json-to-markdown.js';
import { relativePath } from '../../src/content/changes/render-links.js';
import { markdownToJsonDocument } from '../../src/content/markdown/json-document.js';

describe('front matter', () => {
  it('reads what it writes', () => {
    const value = fc.oneof(fc.string(), fc.boolean(), fc.integer(), fc.array(fc.string(), { maxLength: 3 }));
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1 }).filter((k) => k !== '__proto__'),
          value,
          { maxKeys: 5 },
        ),
        fc.string(),
        (data, body) => {
          const read = readFrontMatter(`${writeFrontMatter(data)}${body}`);
          expect(read.ok).toBe(true);
          if (!read.ok) return;
          if (Object.keys(data).length > 0) {
            expect(read.value.data).toEqual(data);
            expect(read.value.body).toBe(body);
          }
        },
      ),
    );
  });

  it('treats a missing or empty block as no metadata and rejects non-mappings', () => {
    expect(readFrontMatter('# Title\n')).toEqual({ ok: true, value: { data: {}, body: '# Title\n', lines: new Map() } });
    expect(readFrontMatter('---\n---\nbody')).toEqual({ ok: true, value: { data: {}, body: 'body', yaml: '', lines: new Map() } });
    expect(readFrontMatter('---\n- a\n---\n')).toEqual({
      ok: false,
      line: 2,
      message: 'front matter must be a YAML mapping (`key: value` lines)',
    });
    expect(writeFrontMatter({})).toBe('');
  });
});

describe('rewriteLinks', () => {
  it('changes nothing when every link is kept', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            'text ',
            '[a](b) ',
            '![i](c.png "t") ',
            '[r][d]\n\n[d]: /x\n',
            '`[x](y)` ',
            '<https://a.b> ',
            '\n\n> [q](/q)\n',
            '*e* ',
          ),
          { maxLength: 12 },
        ),
        (parts) => {
          const markdown = parts.join('');
          expect(rewriteLinks(markdown, () => ({ kind: 'keep' }))).toBe(markdown);
        },
      ),
    );
  });

  it('edits destinations in place, keeps titles, and flattens nested links to text', () => {
    expect(rewriteLinks('[a *b*](old "T") and [c](<with space>)', () => ({ kind: 'url', url: 'new path.md' }))).toBe(
      '[a *b*](<new path.md> "T") and [c](<new path.md>)',
    );
    expect(
      rewriteLinks('[![img](/files/f)](/pages/none) tail', (url) =>
        url === '/files/f' ? { kind: 'url', url: 'a.png' } : { kind: 'text' },
      ),
    ).toBe('![img](a.png) tail');
    expect(rewriteLinks('x [ref][d]\n\n[d]: /gone\n', () => ({ kind: 'text' }))).toBe('x [ref][d]\n\n\n');
  });
});

describe('relativePath', () => {
  it.each([
    ['', 'a.md', 'a.md'],
    ['guide', 'guide/x.md', 'x.md'],
    ['guide', 'README.md', '../README.md'],
    ['a/b', 'a/c/d.md', '../c/d.md'],
    ['a', 'a/README.md', 'README.md'],
    ['', '.gitbook/assets/x.png', '.gitbook/assets/x.png'],
  ])('from %j to %j is %j', (from, to, expected) => expect(relativePath(from, to)).toBe(expected));
});

describe('jsonDocumentToMarkdown', () => {
  it('round-trips the blocks of the JSON rendering', () => {
    const markdown =
      '# Title\n\nSome **bold**, _it_, ~~gone~~, [link](https://x.y) and `code`.\n\n- a\n- b\n\n1. one\n2. two\n\n> quote\n\n```js\nlet a = 1;\n```\n\n---\n';
    expect(jsonDocumentToMarkdown(markdownToJsonDocument(markdown))).toBe(markdown);
  });

  it('keeps the text of blocks it does not know and ignores junk', () => {
    const doc = {
      object: 'document',
      nodes: [
        {
          object: 'block',
          type: 'hint',
          nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'careful *now*' }] }] }],
        },
        'junk',
        null,
      ],
    };
    expect(jsonDocumentToMarkdown(doc)).toBe('careful \\*now\\*\n');
    expect(jsonDocumentToMarkdown({ object: 'document', nodes: [] })).toBe('');
  });
});

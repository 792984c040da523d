import { describe, expect, it } from 'vitest';
import { findPage, pagePaths } from '../../src/content/index.js';
import { apply, context, ok, page, text, tree } from './changes-helpers.js';

const base = () =>
  tree([page('intro', 'introduction'), page('guide', 'guide', { pages: [page('install', 'install'), page('faq', 'faq')] })]);

describe('insert_page', () => {
  it('appends at the top level with a slug from the title and the document stored', () => {
    const r = ok(apply(base(), [{ operation: 'insert_page', title: 'Getting Started', document: { markdown: 'Hello\n' } }]));
    const p = r.tree.pages[2]!;
    expect(p).toMatchObject({
      id: 'new1',
      title: 'Getting Started',
      slug: 'getting-started',
      type: 'document',
      createdAt: '2026-01-02T03:04:05.000Z',
    });
    expect(text(r, 'new1')).toBe('Hello\n');
    expect(r.outcomes).toEqual([{ object: 'created_page', page: 'new1' }]);
  });

  it('places the page with into and at (at is clamped to the end)', () => {
    const r = ok(
      apply(base(), [
        { operation: 'insert_page', title: 'A', into: 'guide', at: 0, document: {} },
        { operation: 'insert_page', title: 'B', into: 'guide', at: 99, document: {} },
      ]),
    );
    expect(findPage(r.tree.pages, 'guide')!.pages.map((p) => p.id)).toEqual(['new1', 'install', 'faq', 'new2']);
  });

  it('makes a derived slug unique among siblings but refuses an explicit duplicate with 409', () => {
    const r = ok(apply(base(), [{ operation: 'insert_page', title: 'Introduction', document: {} }]));
    expect(r.tree.pages[2]!.slug).toBe('introduction-2');
    const bad = apply(base(), [{ operation: 'insert_page', title: 'X', slug: 'introduction', document: {} }]);
    expect(bad).toMatchObject({ ok: false, index: 0, status: 409 });
    expect(bad.ok || bad.message).toMatch(/^changes\[0\]: slug "introduction" is already used/);
  });

  it('refuses an invalid slug and an unknown parent, naming the change', () => {
    expect(
      apply(base(), [
        { operation: 'insert_page', title: 'X', document: {} },
        { operation: 'insert_page', slug: 'a/b', document: {} },
      ]),
    ).toMatchObject({
      ok: false,
      index: 1,
      status: 400,
      message: expect.stringMatching(/^changes\[1\]: slug "a\/b" must not contain/),
    });
    expect(apply(base(), [{ operation: 'insert_page', into: 'nope', document: {} }])).toMatchObject({
      ok: false,
      message: 'changes[0]: into: page nope not found',
    });
  });

  it('takes the title from front matter, else the leading heading, else title, else Untitled', () => {
    const r = ok(
      apply(base(), [
        { operation: 'insert_page', title: 'Field', document: { markdown: '---\ntitle: Front\n---\n# Heading\n\nBody\n' } },
        { operation: 'insert_page', title: 'Field', document: { markdown: '# Heading\n\nBody\n' } },
        { operation: 'insert_page', title: 'Field', document: { markdown: 'Body\n' } },
        { operation: 'insert_page', document: { markdown: 'Body\n' } },
      ]),
    );
    expect(r.tree.pages.slice(2).map((p) => p.title)).toEqual(['Front', 'Heading', 'Field', 'Untitled']);
    // The heading that became the title is removed; one that did not stays.
    expect(text(r, 'new1')).toBe('# Heading\n\nBody\n');
    expect(text(r, 'new2')).toBe('Body\n');
  });

  it('lets front matter override the metadata fields and keeps unknown keys', () => {
    const markdown =
      '---\ndescription: From FM\nhidden: true\nicon: gear\nif: visitor.beta\nlayout:\n  width: wide\n  outline:\n    visible: false\ntags: [a, b]\n---\nText\n';
    const r = ok(
      apply(base(), [{ operation: 'insert_page', title: 'T', description: 'field', hidden: false, noIndex: true, document: { markdown } }]),
    );
    expect(r.tree.pages[2]).toMatchObject({
      description: 'From FM',
      hidden: true,
      noIndex: true,
      icon: 'gear',
      condition: 'visitor.beta',
      layout: { width: 'wide', outline: false },
    });
    expect(text(r, 'new1')).toBe('---\ntags:\n  - a\n  - b\n---\nText\n');
  });

  it('refuses broken front matter with the key and the change index', () => {
    expect(apply(base(), [{ operation: 'insert_page', document: { markdown: '---\nhidden: yes\n---\n' } }])).toMatchObject({
      ok: false,
      message: 'changes[0]: front matter `hidden` must be true or false, got "yes"',
    });
    expect(apply(base(), [{ operation: 'insert_page', document: { markdown: '---\na: [\n---\n' } }])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not valid YAML/),
    });
  });

  it('converts a JSON document to markdown', () => {
    const document = {
      object: 'document' as const,
      data: {},
      nodes: [
        { object: 'block', type: 'heading-1', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Title', marks: [] }] }] },
        {
          object: 'block',
          type: 'paragraph',
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'bold', marks: [{ type: 'bold' }] }] }],
        },
      ],
    };
    const r = ok(apply(base(), [{ operation: 'insert_page', document: { document } }]));
    expect(r.tree.pages[2]!.title).toBe('Title');
    expect(text(r, 'new1')).toBe('**bold**\n');
  });

  it('stores no document for an empty one', () => {
    const r = ok(apply(base(), [{ operation: 'insert_page', title: 'Empty', document: { markdown: '# Empty\n' } }]));
    expect(r.tree.pages[2]!.document).toBeUndefined();
    expect(r.documents.size).toBe(0);
  });
});

describe('update_page', () => {
  it('renames the title without moving the slug, and changes the slug when asked', () => {
    const r = ok(
      apply(base(), [
        { operation: 'update_page', page: 'intro', title: 'Welcome' },
        { operation: 'update_page', page: 'faq', slug: 'questions' },
      ]),
    );
    expect(findPage(r.tree.pages, 'intro')).toMatchObject({
      title: 'Welcome',
      slug: 'introduction',
      updatedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(findPage(r.tree.pages, 'faq')!.slug).toBe('questions');
    expect(r.outcomes).toEqual([
      { object: 'updated_page', page: 'intro' },
      { object: 'updated_page', page: 'faq' },
    ]);
  });

  it('moves with into (null: top level) and at, and refuses a move into its own subtree', () => {
    const r = ok(
      apply(base(), [
        { operation: 'update_page', page: 'faq', into: null, at: 0 },
        { operation: 'update_page', page: 'intro', into: 'guide' },
      ]),
    );
    expect(r.tree.pages.map((p) => p.id)).toEqual(['faq', 'guide']);
    expect(r.tree.pages[1]!.pages.map((p) => p.id)).toEqual(['install', 'intro']);
    const reorder = ok(apply(base(), [{ operation: 'update_page', page: 'faq', at: 0 }]));
    expect(reorder.tree.pages[1]!.pages.map((p) => p.id)).toEqual(['faq', 'install']);
    expect(apply(base(), [{ operation: 'update_page', page: 'guide', into: 'install' }])).toMatchObject({
      ok: false,
      message: 'changes[0]: into: page guide cannot move into itself or one of its subpages (install)',
    });
  });

  it('refuses a move that lands next to a sibling with the same slug (409)', () => {
    const t = tree([page('a', 'same'), page('b', 'b', { pages: [page('c', 'same')] })]);
    expect(apply(t, [{ operation: 'update_page', page: 'c', into: null }])).toMatchObject({ ok: false, status: 409 });
  });

  it('clears emoji, icon and condition with "" and leaves out document for metadata only', () => {
    const t = tree([page('a', 'a', { emoji: '1f389', icon: 'gear', condition: 'x', document: 'd:keep\n' })]);
    const r = ok(apply(t, [{ operation: 'update_page', page: 'a', emoji: '', icon: '', condition: '', noRobotsIndex: true }]));
    expect(r.tree.pages[0]).toEqual({
      id: 'a',
      type: 'document',
      title: 'A',
      slug: 'a',
      document: 'd:keep\n',
      noRobotsIndex: true,
      updatedAt: '2026-01-02T03:04:05.000Z',
      pages: [],
    });
  });

  it('replaces the document, its front matter and heading updating metadata', () => {
    const r = ok(
      apply(base(), [
        {
          operation: 'update_page',
          page: 'intro',
          description: 'x',
          document: { markdown: '---\ndescription: fm\n---\n# New title\n\nNew body\n' },
        },
      ]),
    );
    expect(findPage(r.tree.pages, 'intro')).toMatchObject({ title: 'New title', description: 'fm', slug: 'introduction' });
    expect(text(r, 'intro')).toBe('New body\n');
  });

  it('refuses an unknown page', () => {
    expect(apply(base(), [{ operation: 'update_page', page: 'ghost', title: 'x' }])).toMatchObject({
      ok: false,
      index: 0,
      message: 'changes[0]: page ghost not found',
    });
  });
});

describe('delete_page', () => {
  it('removes the subtree and reports every removed page', () => {
    const r = ok(apply(base(), [{ operation: 'delete_page', page: 'guide' }]));
    expect(r.tree.pages.map((p) => p.id)).toEqual(['intro']);
    expect(r.outcomes).toEqual(['guide', 'install', 'faq'].map((page) => ({ object: 'deleted_page', page })));
  });

  it('leaves no outcome for a page created and deleted in the same batch', () => {
    const r = ok(
      apply(base(), [
        { operation: 'insert_page', title: 'tmp', document: { markdown: 'x' } },
        { operation: 'delete_page', page: 'new1' },
      ]),
    );
    expect(r.outcomes).toEqual([]);
    expect(r.documents.size).toBe(0);
  });

  it('refuses a missing page', () => {
    expect(
      apply(base(), [
        { operation: 'delete_page', page: 'guide' },
        { operation: 'delete_page', page: 'install' },
      ]),
    ).toMatchObject({ ok: false, index: 1 });
  });
});

describe('revert_page', () => {
  const original = tree([
    page('intro', 'introduction', { document: 'd:old\n', title: 'Intro' }),
    page('gone', 'gone', { document: 'd:g\n', pages: [page('child', 'child')] }),
  ]);
  const current = tree([page('intro', 'welcome', { document: 'd:new\n', title: 'Welcome', hidden: true }), page('added', 'added')]);
  const ctx = () => context({ revisions: new Map([['base', original]]) });

  it('resets an edited page: metadata and document, position kept', () => {
    const r = ok(apply(current, [{ operation: 'revert_page', page: 'intro' }], ctx()));
    expect(r.tree.pages[0]).toEqual({
      id: 'intro',
      type: 'document',
      title: 'Intro',
      slug: 'introduction',
      document: 'd:old\n',
      pages: [],
    });
    expect(r.outcomes).toEqual([{ object: 'updated_page', page: 'intro' }]);
  });

  it('removes an added page and restores a deleted one with its subpages', () => {
    const r = ok(
      apply(
        current,
        [
          { operation: 'revert_page', page: 'added' },
          { operation: 'revert_page', page: 'gone' },
        ],
        ctx(),
      ),
    );
    expect(r.tree.pages.map((p) => p.id)).toEqual(['intro', 'gone']);
    expect(r.tree.pages[1]!.pages.map((p) => p.id)).toEqual(['child']);
    expect(r.outcomes).toEqual([
      { object: 'deleted_page', page: 'added' },
      { object: 'created_page', page: 'gone' },
      { object: 'created_page', page: 'child' },
    ]);
  });

  it('uses a named revision, and refuses unknown revisions and pages', () => {
    const other = tree([page('intro', 'other', { title: 'Other' })]);
    const r = ok(
      apply(
        current,
        [{ operation: 'revert_page', page: 'intro', revision: 'r2' }],
        context({
          revisions: new Map([
            ['base', original],
            ['r2', other],
          ]),
        }),
      ),
    );
    expect(r.tree.pages[0]).toMatchObject({ slug: 'other', title: 'Other' });
    expect(r.tree.pages[0]!.document).toBeUndefined();
    expect(apply(current, [{ operation: 'revert_page', page: 'intro', revision: 'r9' }], ctx())).toMatchObject({
      ok: false,
      message: 'changes[0]: revision r9 not found in this space',
    });
    expect(apply(current, [{ operation: 'revert_page', page: 'nowhere' }], ctx())).toMatchObject({
      ok: false,
      message: expect.stringMatching(/page nowhere not found/),
    });
  });

  it('reverts single top-level blocks by index, metadata untouched', () => {
    const before = tree([page('p', 'p', { document: 'd:one\n\ntwo\n\nthree\n' })]);
    const now = tree([page('p', 'renamed', { document: 'd:one\n\nTWO\n\nthree\n\nfour\n' })]);
    const c = context({ revisions: new Map([['base', before]]) });
    const edited = ok(apply(now, [{ operation: 'revert_page', page: 'p', block: ['1'] }], c));
    expect(text(edited, 'p')).toBe('one\n\ntwo\n\nthree\n\nfour\n');
    expect(edited.tree.pages[0]!.slug).toBe('renamed');
    const added = ok(apply(now, [{ operation: 'revert_page', page: 'p', block: ['3', '0'] }], c));
    expect(text(added, 'p')).toBe('one\n\nTWO\n\nthree\n');
    expect(apply(now, [{ operation: 'revert_page', page: 'p', block: ['4'] }], c)).toMatchObject({
      ok: false,
      message: 'changes[0]: block "4" not found in page p: its blocks are 0 to 3',
    });
  });
});

describe('insert_files', () => {
  it('adds files with the prepared bytes and lists them in order', () => {
    const files = new Map([
      ['0/0', { blob: 'b1', size: 3, contentType: 'image/png' }],
      ['0/1', { blob: 'b2', size: 4, contentType: 'text/plain' }],
    ]);
    const r = ok(
      apply(
        base(),
        [
          {
            operation: 'insert_files',
            files: [
              { name: 'a.png', base64: 'AAA', contentType: 'image/png' },
              { name: 'b.txt', url: 'https://x/b.txt' },
            ],
          },
        ],
        context({ files }),
      ),
    );
    expect(r.insertedFiles).toEqual([
      { id: 'new1', name: 'a.png', contentType: 'image/png', size: 3, blob: 'b1' },
      { id: 'new2', name: 'b.txt', contentType: 'text/plain', size: 4, blob: 'b2' },
    ]);
    expect(r.tree.files).toEqual(r.insertedFiles);
    expect(r.outcomes).toEqual([]);
  });
});

describe('refs', () => {
  it('resolve page and file refs whatever the order, to paths relative to the page', () => {
    const files = new Map([['2/0', { blob: 'b', size: 1, contentType: 'image/png' }]]);
    const r = ok(
      apply(
        base(),
        [
          {
            operation: 'insert_page',
            ref: 'first',
            title: 'First',
            into: 'guide',
            document: { markdown: 'See [second](./second.md#top) and ![logo](./logo)\n' },
          },
          { operation: 'insert_page', ref: 'second', title: 'Second', document: { markdown: 'Back to [first](./first.md)\n' } },
          { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', base64: 'AA==', contentType: 'image/png' }] },
        ],
        context({ files }),
      ),
    );
    expect(text(r, 'new1')).toBe('See [second](../second.md#top) and ![logo](../.gitbook/assets/logo.png)\n');
    expect(text(r, 'new2')).toBe('Back to [first](guide/first.md)\n');
    expect(r.outcomes).toEqual([
      { object: 'created_page', page: 'new1', ref: 'first' },
      { object: 'created_page', page: 'new2', ref: 'second' },
    ]);
  });

  it('must be unique in the batch and must not be an existing page path', () => {
    expect(
      apply(base(), [
        { operation: 'insert_page', ref: 'x', document: {} },
        { operation: 'insert_files', files: [{ name: 'a', ref: 'x', url: 'https://a' }] },
      ]),
    ).toMatchObject({
      ok: false,
      index: 1,
      message: 'changes[1]: files[0]: ref "x" is used twice in the batch',
    });
    expect(apply(base(), [{ operation: 'insert_page', ref: 'guide', document: {} }])).toMatchObject({
      ok: false,
      index: 0,
      message: expect.stringMatching(/path of an existing page/),
    });
  });
});

describe('link resolution', () => {
  const t = () =>
    tree(
      [
        page('intro', 'introduction'),
        page('guide', 'guide', { pages: [page('install', 'install'), page('faq', 'faq')] }),
        page('grp', 'group', { type: 'group' }),
      ],
      { files: [{ id: 'f1', name: 'logo.png', contentType: 'image/png', size: 1, blob: 'b' }] },
    );
  const write = (markdown: string, pageId = 'faq') =>
    text(ok(apply(t(), [{ operation: 'update_page', page: pageId, document: { markdown } }])), pageId);

  it('resolves every published form to a path relative to the page', () => {
    expect(
      write('[a](/pages/install#x) [b](/pages/guide/install) [c](/pages/guide/README.md) [d](/pages/README.md) [e](/pages/introduction)'),
    ).toBe('[a](install.md#x) [b](install.md) [c](README.md) [d](../README.md) [e](../README.md)\n');
    expect(write('[s](./install.md) [p](../README.md) [f](../guide) ![l](/files/f1) ![m](../.gitbook/assets/logo.png)')).toBe(
      '[s](install.md) [p](../README.md) [f](README.md) ![l](../.gitbook/assets/logo.png) ![m](../.gitbook/assets/logo.png)\n',
    );
  });

  it('writes a link written as a folder (`../guide/`, `./`) as the folder again while its page is a README', () => {
    expect(write('[g](../guide/) [h](./#top) [r](../) [i](../guide/#x)')).toBe('[g](./) [h](./#top) [r](../) [i](./#x)\n');
    expect(write('[g](guide/) [s](./)', 'intro')).toBe('[g](guide/) [s](./)\n');
    // The page loses its children: no folder names it any more, so the link names its file.
    const r = ok(
      apply(t(), [
        { operation: 'update_page', page: 'intro', document: { markdown: 'See [g](guide/#x).' } },
        { operation: 'update_page', page: 'install', into: null },
        { operation: 'update_page', page: 'faq', into: null },
      ]),
    );
    expect(text(r, 'intro')).toBe('See [g](guide.md#x).\n');
  });

  it('keeps external links and anchors, and links that resolve to nothing as written; a data: image and a link to a group become text', () => {
    expect(write('[w](https://example.com/x) [m](mailto:a@b.c) [h](#here) <https://auto.link>')).toBe(
      '[w](https://example.com/x) [m](mailto:a@b.c) [h](#here) <https://auto.link>\n',
    );
    expect(
      write(
        '[**gone**](/pages/nope) ![pic](/files/nope) [x](../../outside.md) [y](/elsewhere) ![d](data:image/png;base64,AA==) [g](/pages/group)',
      ),
    ).toBe('[**gone**](/pages/nope) ![pic](/files/nope) [x](../../outside.md) [y](/elsewhere) d g\n');
  });

  it('renders links against the final tree when the batch moves pages afterwards', () => {
    const r = ok(
      apply(t(), [
        { operation: 'update_page', page: 'intro', document: { markdown: '[faq](/pages/faq)' } },
        { operation: 'update_page', page: 'faq', into: null },
      ]),
    );
    expect(text(r, 'intro')).toBe('[faq](faq.md)\n');
  });

  it('turns a link into text when its target is deleted later in the batch', () => {
    const r = ok(
      apply(t(), [
        { operation: 'update_page', page: 'intro', document: { markdown: 'x [faq](/pages/faq) y' } },
        { operation: 'delete_page', page: 'faq' },
      ]),
    );
    expect(text(r, 'intro')).toBe('x faq y\n');
  });

  it('round-trips: writing back the stored markdown resolves to the same links', () => {
    const first = write('[i](/pages/install) ![l](/files/f1)');
    expect(write(first!)).toBe(first);
    expect(pagePaths(t().pages).get('faq')!.gitPath).toBe('guide/faq.md');
  });
});

describe('limits', () => {
  it('refuses documents nested too deeply to parse safely, naming the change', () => {
    const cases: [string, RegExp][] = [
      ['>'.repeat(65) + ' x', /block quotes or lists more than 64 deep/],
      ['- '.repeat(65) + 'x', /block quotes or lists more than 64 deep/],
      ['['.repeat(65) + 'x' + ']'.repeat(65), /brackets more than 64 deep/],
      [' '.repeat(257) + '- x', /indents a line more than 256 columns/],
    ];
    for (const [markdown, message] of cases) {
      const r = apply(tree([]), [{ operation: 'insert_page', document: { markdown } }]);
      expect(r).toMatchObject({ ok: false, index: 0, status: 400, message: expect.stringMatching(message) });
    }
    expect(ok(apply(tree([]), [{ operation: 'insert_page', document: { markdown: '>'.repeat(64) + ' x' } }])).tree.pages).toHaveLength(1);
  });

  it('refuses a JSON document nested too deeply', () => {
    let node: unknown = { object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [] }] };
    for (let i = 0; i < 200; i += 1) node = { object: 'block', type: 'blockquote', nodes: [node] };
    const r = apply(tree([]), [{ operation: 'insert_page', document: { document: { object: 'document', data: {}, nodes: [node] } } }]);
    expect(r).toMatchObject({ ok: false, message: 'changes[0]: document nests blocks more than 64 deep' });
  });
});

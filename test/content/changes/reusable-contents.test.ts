import { describe, expect, it } from 'vitest';
import type { ContentChange, TreeReusableContent } from '../../../src/model/index.js';
import { includeNames } from '../../../src/content/index.js';
import { apply, ok, page, tree } from '../changes-helpers.js';

const rc = (id: string, title: string, extra: Partial<TreeReusableContent> = {}): TreeReusableContent => ({ id, title, ...extra });
const base = () =>
  tree([page('intro', 'introduction')], { reusableContents: [rc('r1', 'Warning', { name: 'warning.md', document: 'd:Careful.\n' })] });
const insert = (title: string, markdown: string, extra: Record<string, unknown> = {}): ContentChange =>
  ({ operation: 'insert_reusable_content', title, document: { markdown }, ...extra }) as ContentChange;

describe('insert_reusable_content', () => {
  it('adds a content after the others, its body stored as sent apart from white space, its file named from the title', () => {
    const r = ok(apply(base(), [insert('Install note', '\n\nRun `npm i`.\n\n{% include "x.md" %}\n\n\n')]));
    expect(r.tree.reusableContents).toEqual([
      rc('r1', 'Warning', { name: 'warning.md', document: 'd:Careful.\n' }),
      rc('new1', 'Install note', { name: 'install-note.md', document: 'd:Run `npm i`.\n\n{% include "x.md" %}\n\n\n' }),
    ]);
    expect(r.documents).toEqual(new Map([['d:Run `npm i`.\n\n{% include "x.md" %}\n\n\n', 'Run `npm i`.\n\n{% include "x.md" %}\n\n\n']]));
    expect(r.insertedReusableContents).toEqual([r.tree.reusableContents[1]]);
    expect(r.outcomes).toEqual([]);
  });

  it('keeps front matter, a title heading and relative links in the body: nothing is taken out of an include', () => {
    const markdown = '---\nkey: v\n---\n# Heading\n\nSee [install](../../install.md).\n';
    const r = ok(apply(base(), [insert('T', markdown)]));
    expect(r.tree.reusableContents[1]!.document).toBe(`d:${markdown}`);
  });

  it('an empty body stores no document; a JSON document is stored as its markdown', () => {
    const json = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hi', marks: [] }] }] }],
    };
    const r = ok(
      apply(base(), [
        insert('Empty', '  \n'),
        { operation: 'insert_reusable_content', title: 'Json', document: { document: json } } as ContentChange,
        { operation: 'insert_reusable_content', title: 'None', document: {} },
      ]),
    );
    expect(r.tree.reusableContents.slice(1)).toEqual([
      rc('new1', 'Empty', { name: 'empty.md' }),
      rc('new2', 'Json', { name: 'json.md', document: 'd:Hi\n' }),
      rc('new3', 'None', { name: 'none.md' }),
    ]);
  });

  it('makes a derived name unique among the files, and takes a given one when it is free', () => {
    const r = ok(apply(base(), [insert('Warning', 'a'), insert('Warning', 'b'), insert('Other', 'c', { name: 'Hand Named.md' })]));
    expect(r.tree.reusableContents.map((c) => c.name)).toEqual(['warning.md', 'warning-2.md', 'warning-3.md', 'Hand Named.md']);
  });

  it('refuses a blank title, a bad or taken name, a ref used twice, naming the change and the field', () => {
    const cases: [ContentChange[], string, number][] = [
      [[insert('  ', 'x')], 'changes[0]: title: must not be blank', 400],
      [[insert('T', 'x', { name: 'notes.txt' })], 'changes[0]: name: "notes.txt" must be a file name ending in `.md`', 400],
      [
        [insert('T', 'x', { name: 'sub/notes.md' })],
        'changes[0]: name: "sub/notes.md" must not contain `/` or `\\` (includes sit directly in `.gitbook/includes/`)',
        400,
      ],
      [
        [insert('T', 'x'), insert('U', 'y', { name: 'warning.md' })],
        'changes[1]: name: "warning.md" is already the file of reusable content r1',
        409,
      ],
      [[insert('T', 'x', { ref: 'a' }), insert('U', 'y', { ref: 'a' })], 'changes[1]: ref "a" is used twice in the batch', 400],
      [
        [{ operation: 'insert_page', title: 'P', ref: 'a', document: { markdown: 'x' } }, insert('U', 'y', { ref: 'a' })],
        'changes[1]: ref "a" is used twice in the batch',
        400,
      ],
      [
        [insert('U', 'y', { ref: 'a' }), { operation: 'insert_page', title: 'P', ref: 'a', document: { markdown: 'x' } }],
        'changes[1]: ref "a" is used twice in the batch',
        400,
      ],
      [[insert('T', `${'> '.repeat(70)}deep`)], 'changes[0]: markdown nests block quotes or lists more than 64 deep', 400],
    ];
    for (const [changes, message, status] of cases) expect(apply(base(), changes)).toMatchObject({ ok: false, message, status });
  });

  it('a reusable content ref is not a link target: a page linking to `./ref` keeps the link as written, resolved to nothing', () => {
    const r = ok(
      apply(base(), [
        insert('T', 'x', { ref: 'note' }),
        { operation: 'insert_page', title: 'P', document: { markdown: 'See [n](./note.md).\n' } },
      ]),
    );
    expect([...r.documents.values()]).toEqual(['See [n](./note.md).\n', 'x\n']);
  });
});

describe('update_reusable_content', () => {
  it('changes the title without moving the file, replaces or empties the body, renames the file', () => {
    const retitled = ok(apply(base(), [{ operation: 'update_reusable_content', reusableContent: 'r1', title: 'Caution' }]));
    expect(retitled.tree.reusableContents).toEqual([rc('r1', 'Caution', { name: 'warning.md', document: 'd:Careful.\n' })]);
    const rewritten = ok(apply(base(), [{ operation: 'update_reusable_content', reusableContent: 'r1', document: { markdown: 'New.' } }]));
    expect(rewritten.tree.reusableContents).toEqual([rc('r1', 'Warning', { name: 'warning.md', document: 'd:New.\n' })]);
    expect(rewritten.documents).toEqual(new Map([['d:New.\n', 'New.\n']]));
    const emptied = ok(apply(base(), [{ operation: 'update_reusable_content', reusableContent: 'r1', document: {} }]));
    expect(emptied.tree.reusableContents).toEqual([rc('r1', 'Warning', { name: 'warning.md' })]);
    const renamed = ok(apply(base(), [{ operation: 'update_reusable_content', reusableContent: 'r1', name: 'caution.md' }]));
    expect(renamed.tree.reusableContents[0]!.name).toBe('caution.md');
  });

  it('only the last body of a batch is stored', () => {
    const r = ok(
      apply(base(), [
        { operation: 'update_reusable_content', reusableContent: 'r1', document: { markdown: 'one' } },
        { operation: 'update_reusable_content', reusableContent: 'r1', document: { markdown: 'two' } },
      ]),
    );
    expect([...r.documents.keys()]).toEqual(['d:two\n']);
  });

  it('keeps the names of contents stored without one, so they no longer follow their titles', () => {
    const t = tree([], { reusableContents: [rc('a', 'Note'), rc('b', 'Note')] });
    expect(includeNames(t.reusableContents)).toEqual(['note.md', 'note-2.md']);
    const r = ok(apply(t, [{ operation: 'update_reusable_content', reusableContent: 'a', title: 'Renamed' }]));
    expect(r.tree.reusableContents).toEqual([rc('a', 'Renamed', { name: 'note.md' }), rc('b', 'Note', { name: 'note-2.md' })]);
  });

  it('refuses an unknown content, a blank title, a taken name, naming the change and the field', () => {
    const t = tree([], { reusableContents: [rc('a', 'A', { name: 'a.md' }), rc('b', 'B', { name: 'b.md' })] });
    expect(apply(t, [{ operation: 'update_reusable_content', reusableContent: 'zz', title: 'X' }])).toMatchObject({
      ok: false,
      message: 'changes[0]: reusableContent: reusable content zz not found',
      status: 400,
    });
    expect(apply(t, [{ operation: 'update_reusable_content', reusableContent: 'a', title: ' ' }])).toMatchObject({
      ok: false,
      message: 'changes[0]: title: must not be blank',
    });
    expect(apply(t, [{ operation: 'update_reusable_content', reusableContent: 'a', name: 'b.md' }])).toMatchObject({
      ok: false,
      message: 'changes[0]: name: "b.md" is already the file of reusable content b',
      status: 409,
    });
    expect(
      ok(apply(t, [{ operation: 'update_reusable_content', reusableContent: 'a', name: 'a.md' }])).tree.reusableContents[0]!.name,
    ).toBe('a.md');
  });
});

describe('delete_reusable_content', () => {
  it('removes it; the others keep their files; an unknown one is a 400 naming the change', () => {
    const t = tree([], { reusableContents: [rc('a', 'Note'), rc('b', 'Note')] });
    const r = ok(apply(t, [{ operation: 'delete_reusable_content', reusableContent: 'a' }]));
    expect(r.tree.reusableContents).toEqual([rc('b', 'Note', { name: 'note-2.md' })]);
    expect(
      apply(t, [
        { operation: 'delete_reusable_content', reusableContent: 'a' },
        { operation: 'delete_reusable_content', reusableContent: 'a' },
      ]),
    ).toMatchObject({ ok: false, index: 1, message: 'changes[1]: reusableContent: reusable content a not found', status: 400 });
  });

  it('a content inserted and deleted in one batch leaves nothing but its entry in insertedReusableContents', () => {
    const r = ok(apply(base(), [insert('T', 'x'), { operation: 'delete_reusable_content', reusableContent: 'new1' }]));
    expect(r.tree.reusableContents.map((c) => c.id)).toEqual(['r1']);
    expect(r.documents.size).toBe(0);
    expect(r.insertedReusableContents.map((c) => c.id)).toEqual(['new1']);
  });
});

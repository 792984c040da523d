import { describe, expect, it } from 'vitest';
import type { ContentChange, TreeFile } from '../../../src/model/index.js';
import type { PreparedFile } from '../../../src/content/index.js';
import { apply, context, ok, page, text, tree } from '../changes-helpers.js';

const file = (id: string, name: string, blob = `old-${id}`): TreeFile => ({ id, name, contentType: 'image/png', size: 1, blob });
const base = () =>
  tree([page('intro', 'introduction')], {
    files: [file('f1', 'logo.png'), file('f2', 'notes.txt')],
    variables: { LATEST: '1.0' },
  });
const prepared = (entries: [string, string][]) =>
  context({
    files: new Map<string, PreparedFile>(entries.map(([key, blob]) => [key, { blob, size: blob.length, contentType: 'text/plain' }])),
  });
const upload = (...names: string[]): ContentChange => ({
  operation: 'insert_files',
  files: names.map((name) => ({ name, base64: 'AA==', contentType: 'text/plain' })),
});

describe('insert_files with the name of an existing file', () => {
  it('replaces its bytes and content type in place, keeps its id, and lists it with that id', () => {
    const r = ok(
      apply(
        base(),
        [upload('notes.txt', 'new.txt')],
        prepared([
          ['0/0', 'fresh'],
          ['0/1', 'other'],
        ]),
      ),
    );
    expect(r.tree.files).toEqual([
      file('f1', 'logo.png'),
      { id: 'f2', name: 'notes.txt', contentType: 'text/plain', size: 5, blob: 'fresh' },
      { id: 'new1', name: 'new.txt', contentType: 'text/plain', size: 5, blob: 'other' },
    ]);
    expect(r.insertedFiles.map((f) => [f.id, f.name, f.blob])).toEqual([
      ['f2', 'notes.txt', 'fresh'],
      ['new1', 'new.txt', 'other'],
    ]);
  });

  it('drops the old dimensions, which belonged to the old bytes', () => {
    const t = tree([], { files: [{ ...file('f1', 'logo.png'), dimensions: { width: 10, height: 20 } }] });
    const r = ok(apply(t, [upload('logo.png')], prepared([['0/0', 'new']])));
    expect(r.tree.files[0]).not.toHaveProperty('dimensions');
  });

  it('names a file inserted earlier in the batch: the later bytes win, one file, one entry per item', () => {
    const r = ok(
      apply(
        base(),
        [upload('a.txt'), upload('a.txt')],
        prepared([
          ['0/0', 'first'],
          ['1/0', 'second'],
        ]),
      ),
    );
    expect(r.tree.files.filter((f) => f.name === 'a.txt')).toEqual([
      { id: 'new1', name: 'a.txt', contentType: 'text/plain', size: 6, blob: 'second' },
    ]);
    expect(r.insertedFiles.map((f) => [f.id, f.blob])).toEqual([
      ['new1', 'first'],
      ['new1', 'second'],
    ]);
  });

  it('replaces the first of two files of one name (the one its Git Sync path shows), and only that one', () => {
    const t = tree([], { files: [file('a', 'x.png'), file('b', 'x.png')] });
    const r = ok(apply(t, [upload('x.png')], prepared([['0/0', 'new']])));
    expect(r.tree.files.map((f) => [f.id, f.blob])).toEqual([
      ['a', 'new'],
      ['b', 'old-b'],
    ]);
  });

  it('a ref to a replaced file links to the kept id, at its path', () => {
    const ctx = prepared([['1/0', 'fresh']]);
    const r = ok(
      apply(
        base(),
        [
          { operation: 'insert_page', title: 'P', document: { markdown: 'See ![logo](./logo)\n' } },
          { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', base64: 'AA==', contentType: 'image/png' }] },
        ],
        ctx,
      ),
    );
    expect(r.tree.files.map((f) => f.id)).toEqual(['f1', 'f2']);
    expect(text(r, 'new1')).toBe('See ![logo](.gitbook/assets/logo.png)\n');
  });
});

describe('delete_file', () => {
  it('removes the file; a later insert of its name is a new file with a new id', () => {
    const r = ok(apply(base(), [{ operation: 'delete_file', file: 'f1' }, upload('logo.png')], prepared([['1/0', 'again']])));
    expect(r.tree.files.map((f) => [f.id, f.name])).toEqual([
      ['f2', 'notes.txt'],
      ['new1', 'logo.png'],
    ]);
    expect(r.outcomes).toEqual([]);
  });

  it('after deleting the first of two files of one name, an insert of that name replaces the second', () => {
    const t = tree([], { files: [file('a', 'x.png'), file('b', 'x.png')] });
    const r = ok(apply(t, [{ operation: 'delete_file', file: 'a' }, upload('x.png')], prepared([['1/0', 'new']])));
    expect(r.tree.files.map((f) => [f.id, f.blob])).toEqual([['b', 'new']]);
  });

  it('removes a file inserted earlier in the batch, and a link the batch writes to it becomes text', () => {
    const r = ok(
      apply(
        base(),
        [
          { operation: 'insert_files', files: [{ name: 'tmp.png', ref: 'tmp', base64: 'AA==', contentType: 'image/png' }] },
          { operation: 'insert_page', title: 'P', document: { markdown: 'See ![tmp](./tmp)\n' } },
          { operation: 'delete_file', file: 'new1' },
        ],
        prepared([['0/0', 'x']]),
      ),
    );
    expect(r.tree.files.map((f) => f.id)).toEqual(['f1', 'f2']);
    expect(text(r, 'new2')).toBe('See tmp\n');
  });

  it('refuses a file the revision does not have, naming the change, and applies nothing', () => {
    expect(
      apply(base(), [
        { operation: 'delete_file', file: 'f1' },
        { operation: 'delete_file', file: 'f1' },
      ]),
    ).toEqual({
      ok: false,
      index: 1,
      message: 'changes[1]: file: file f1 not found',
      status: 400,
    });
  });
});

describe('set_variables', () => {
  it('replaces the variables whole, in the order written (.gitbook/vars.yaml keeps it); {} removes them all', () => {
    const r = ok(apply(base(), [{ operation: 'set_variables', variables: { beta: true, COUNT: 3, LABEL: 'v2' } }]));
    expect(r.tree.variables).toEqual({ COUNT: 3, LABEL: 'v2', beta: true });
    expect(Object.keys(r.tree.variables)).toEqual(['beta', 'COUNT', 'LABEL']);
    expect(r.tree.pages).toEqual(base().pages);
    expect(r.outcomes).toEqual([]);
    expect(ok(apply(base(), [{ operation: 'set_variables', variables: {} }])).tree.variables).toEqual({});
  });

  it('the last set_variables of a batch wins', () => {
    const r = ok(
      apply(base(), [
        { operation: 'set_variables', variables: { A: 1 } },
        { operation: 'set_variables', variables: { B: 2 } },
      ]),
    );
    expect(r.tree.variables).toEqual({ B: 2 });
  });

  it("refuses names outside GitBook's rule and numbers JSON cannot hold, naming the change and the variable", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ '1st': 'x' }, 'changes[0]: variables: name "1st" must start with a letter and hold only letters, digits and `_`'],
      [{ 'my-var': 'x' }, 'changes[0]: variables: name "my-var" must start with a letter'],
      [{ '': 'x' }, 'changes[0]: variables: name "" must start with a letter'],
      [{ [`a${'b'.repeat(100)}`]: 'x' }, 'is longer than 100 characters'],
      [{ BIG: Number.POSITIVE_INFINITY }, 'changes[0]: variables: BIG must be a finite number'],
    ];
    for (const [variables, message] of cases) {
      const r = apply(base(), [{ operation: 'set_variables', variables } as ContentChange]);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toContain(message);
    }
  });
});

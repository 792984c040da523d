import { describe, expect, it } from 'vitest';
import type { ContentChange, RevisionPage } from '../../src/model/index.js';
import { matchCreatedPages } from '../../src/sync/push/created-pages.js';

const page = (id: string, title: string, pages: RevisionPage[] = []) =>
  ({ id, title, type: 'document', kind: 'sheet', pages }) as unknown as RevisionPage;
const insert = (ref: string, title: string, into?: string) =>
  ({ operation: 'insert_page', ref, title, document: { markdown: `# ${title}\n` }, ...(into ? { into } : {}) }) as Extract<
    ContentChange,
    { operation: 'insert_page' }
  >;

describe('matchCreatedPages: the pages a batch created, from the revisions before and after', () => {
  const before = [page('a', 'Alpha'), page('g', 'Guides', [page('old', 'Install')])];

  it('finds new pages by parent and title, resolving a parent created in the same pass first', () => {
    const after = [
      page('a', 'Alpha'),
      page('g', 'Guides', [page('old', 'Install'), page('n2', 'Install')]),
      page('n1', 'New', [page('n3', 'Child')]),
    ];
    expect(
      matchCreatedPages([insert('r1', 'New'), insert('r2', 'Child', 'ref:r1'), insert('r3', 'Install', 'g')], before, after, {}),
    ).toEqual({ r1: 'n1', r2: 'n3', r3: 'n2' });
  });

  it('gives two inserts of one title under one parent the new pages in tree order, and keeps what is known', () => {
    const after = [...before, page('x1', 'Same'), page('x2', 'Same')];
    expect(matchCreatedPages([insert('r1', 'Same'), insert('r2', 'Same')], before, after, {})).toEqual({ r1: 'x1', r2: 'x2' });
    expect(matchCreatedPages([insert('r1', 'Same'), insert('r2', 'Same')], before, after, { r1: 'x2' })).toEqual({ r1: 'x2', r2: 'x1' });
  });

  it('leaves out a ref whose page is not in the new revision, and its children', () => {
    expect(matchCreatedPages([insert('r1', 'Gone'), insert('r2', 'Child', 'ref:r1')], before, before, {})).toEqual({});
  });
});

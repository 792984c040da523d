import fc from 'fast-check';
import type { ContentTree, TreePage } from '../../src/model/index.js';
import { indexPages, insertPage, movePage, removePage, updatePage, walkPages } from '../../src/content/tree/page-tree.js';
import type { DocumentStore } from '../../src/content/merge/merge-tree.js';

/** Documents are their own ids in tests: `d:` + text. */
export const docs: DocumentStore = {
  read: (sha) => sha.slice(2),
  write: (text) => `d:${text}`,
};

const titles = fc.constantFrom('Intro', 'Guide', 'Setup', 'API', 'FAQ', 'Résumé', '日本語', 'Intro 2');
const body = fc.array(fc.constantFrom('alpha\n', 'beta\n', 'gamma\n', 'delta\n', 'eps\n'), { maxLength: 6 }).map((l) => l.join(''));

let counter = 0;
const freshId = () => `p${(counter += 1).toString(36).padStart(4, '0')}`;

/** A random tree: unique ids, unique slugs among siblings, up to ~4 levels deep. */
export const treeArb: fc.Arbitrary<ContentTree> = fc.array(fc.tuple(titles, body, fc.nat(20)), { maxLength: 14 }).map((specs) => {
  let pages: TreePage[] = [];
  for (const [title, text, parentPick] of specs) {
    const all = [...walkPages(pages)];
    const parent = parentPick < all.length && parentPick % 3 !== 0 ? all[parentPick]! : undefined;
    const siblings = parent ? parent.pages : pages;
    const id = freshId();
    const page: TreePage = {
      id,
      type: 'document',
      title,
      slug: `${id}-s${siblings.length}`,
      ...(text ? { document: `d:${text}` } : {}),
      pages: [],
    };
    pages = insertPage(pages, page, parent?.id ?? null) ?? pages;
  }
  return { pages, files: [], variables: { version: '1' }, reusableContents: [] };
});

export type Edit =
  | { op: 'insert'; parentPick: number; at: number; title: string; text: string }
  | { op: 'delete'; pick: number }
  | { op: 'move'; pick: number; parentPick: number; at: number }
  | { op: 'rename'; pick: number; title: string }
  | { op: 'edit'; pick: number; text: string }
  | { op: 'variable'; value: string };

export const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), parentPick: fc.nat(30), at: fc.nat(5), title: titles, text: body }),
  fc.record({ op: fc.constant('delete' as const), pick: fc.nat(30) }),
  fc.record({ op: fc.constant('move' as const), pick: fc.nat(30), parentPick: fc.nat(30), at: fc.nat(5) }),
  fc.record({ op: fc.constant('rename' as const), pick: fc.nat(30), title: titles }),
  fc.record({ op: fc.constant('edit' as const), pick: fc.nat(30), text: body }),
  fc.record({ op: fc.constant('variable' as const), value: fc.constantFrom('1', '2', '3') }),
);

/** Applies edits the way a writer would, keeping the tree valid (moves into own subtree are skipped). */
export function applyEdits(tree: ContentTree, edits: Edit[]): ContentTree {
  let pages = tree.pages;
  let variables = tree.variables;
  for (const edit of edits) {
    const all = [...walkPages(pages)];
    const pickPage = (n: number) => (all.length === 0 ? undefined : all[n % all.length]);
    switch (edit.op) {
      case 'insert': {
        const parent = edit.parentPick % 4 === 0 ? undefined : pickPage(edit.parentPick);
        const id = freshId();
        const page: TreePage = {
          id,
          type: 'document',
          title: edit.title,
          slug: `${id}-new`,
          ...(edit.text ? { document: `d:${edit.text}` } : {}),
          pages: [],
        };
        pages = insertPage(pages, page, parent?.id ?? null, edit.at) ?? pages;
        break;
      }
      case 'delete': {
        const page = pickPage(edit.pick);
        if (page) pages = removePage(pages, page.id)?.pages ?? pages;
        break;
      }
      case 'move': {
        const page = pickPage(edit.pick);
        const parent = edit.parentPick % 4 === 0 ? undefined : pickPage(edit.parentPick);
        if (page) pages = movePage(pages, page.id, parent?.id ?? null, edit.at) ?? pages;
        break;
      }
      case 'rename': {
        const page = pickPage(edit.pick);
        if (page) pages = updatePage(pages, page.id, (p) => ({ ...p, title: edit.title })) ?? pages;
        break;
      }
      case 'edit': {
        const page = pickPage(edit.pick);
        if (page) {
          pages =
            updatePage(pages, page.id, (p) => {
              const { document: _, ...rest } = p;
              return edit.text ? { ...rest, document: `d:${edit.text}` } : rest;
            }) ?? pages;
        }
        break;
      }
      case 'variable':
        variables = { ...variables, version: edit.value };
        break;
    }
  }
  return { ...tree, pages, variables };
}

export function pageIds(tree: ContentTree): string[] {
  return [...indexPages(tree.pages).keys()];
}

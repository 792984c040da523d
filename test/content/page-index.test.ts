import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TreePage } from '../../src/model/index.js';
import { indexPages, insertPage, movePage, pagePaths, removePage, replacePages, updatePage, walkPages } from '../../src/content/index.js';
import { treeArb } from './tree-arbitraries.js';

// Indexes and paths of a tree derived by an edit are derived from the edited tree's instead of
// walking every page. These properties compare them with what a walk of a copy (same pages, no
// cached index) finds, after every edit of long chains (long enough to fold changes back into a
// full index more than once).

type Step =
  | { op: 'insert'; parent: number; at: number; children: number }
  | { op: 'remove'; pick: number }
  | { op: 'move'; pick: number; parent: number; at: number }
  | { op: 'update'; pick: number; field: 'title' | 'slug' | 'type' | 'children' }
  | { op: 'replace'; picks: number[] };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), parent: fc.nat(40), at: fc.nat(6), children: fc.nat(3) }),
  fc.record({ op: fc.constant('remove' as const), pick: fc.nat(40) }),
  fc.record({ op: fc.constant('move' as const), pick: fc.nat(40), parent: fc.nat(40), at: fc.nat(6) }),
  fc.record({
    op: fc.constant('update' as const),
    pick: fc.nat(40),
    field: fc.constantFrom('title' as const, 'slug' as const, 'type' as const, 'children' as const),
  }),
  fc.record({ op: fc.constant('replace' as const), picks: fc.array(fc.nat(40), { minLength: 1, maxLength: 4 }) }),
);

let counter = 0;
const fresh = (children = 0): TreePage => {
  const id = `n${(counter += 1)}`;
  return { id, type: 'document', title: id, slug: id, pages: Array.from({ length: children }, () => fresh()) };
};

function step(pages: TreePage[], s: Step): TreePage[] {
  const all = [...walkPages(pages)];
  const pick = (n: number) => (all.length === 0 ? undefined : all[n % all.length]!);
  const parentOf = (n: number) => (n % 5 === 0 ? null : (pick(n)?.id ?? null));
  switch (s.op) {
    case 'insert':
      return insertPage(pages, fresh(s.children), parentOf(s.parent), s.at) ?? pages;
    case 'remove':
      return removePage(pages, pick(s.pick)?.id ?? '-')?.pages ?? pages;
    case 'move':
      return movePage(pages, pick(s.pick)?.id ?? '-', parentOf(s.parent), s.at) ?? pages;
    case 'update': {
      const edit = (p: TreePage): TreePage => {
        switch (s.field) {
          case 'title':
            return { ...p, title: `${p.title}!` };
          case 'slug':
            return { ...p, slug: `${p.slug}-x` };
          case 'type':
            return { ...p, type: p.type === 'document' ? 'group' : 'document' };
          case 'children':
            return { ...p, pages: [...p.pages.slice(1), fresh(1)] };
        }
      };
      return updatePage(pages, pick(s.pick)?.id ?? '-', edit) ?? pages;
    }
    case 'replace': {
      const ids = new Set(s.picks.flatMap((n) => (pick(n) ? [pick(n)!.id] : [])));
      return replacePages(pages, ids, (p) => ({ ...p, description: 'replaced' })) as TreePage[];
    }
  }
}

/** The index and paths a walk finds, of a copy that shares no array with `pages`. */
function walked(pages: TreePage[]) {
  const copy = structuredClone(pages);
  const places = [...indexPages(copy)].map(([id, p]) => [id, { parentId: p.parentId, index: p.index, depth: p.depth }] as const);
  return { places, paths: [...pagePaths(copy)] };
}

function expectLikeWalk(pages: TreePage[], gone: Iterable<string>): void {
  const index = indexPages(pages);
  const expected = walked(pages);
  const objects = new Map([...walkPages(pages)].map((p) => [p.id, p]));
  // Lookups first: iterating builds the full index.
  for (const [id, place] of expected.places) {
    const found = index.get(id);
    expect(found && { parentId: found.parentId, index: found.index, depth: found.depth }, id).toEqual(place);
    expect(found!.page, id).toBe(objects.get(id));
  }
  for (const id of gone) if (!objects.has(id)) expect(index.has(id), id).toBe(false);
  expect(index.size).toBe(expected.places.length);
  expect([...pagePaths(pages)]).toEqual(expected.paths);
  expect([...index].map(([id, p]) => [id, { parentId: p.parentId, index: p.index, depth: p.depth }])).toEqual(expected.places);
}

describe('indexes derived through edits', () => {
  it('answer as a walk of the edited tree does, after every edit of a chain', () => {
    fc.assert(
      fc.property(treeArb, fc.array(stepArb, { minLength: 1, maxLength: 60 }), (tree, steps) => {
        let pages = tree.pages;
        indexPages(pages);
        pagePaths(pages);
        const seen = new Set<string>();
        for (const s of steps) {
          for (const p of walkPages(pages)) seen.add(p.id);
          pages = step(pages, s);
          expectLikeWalk(pages, seen);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a one-page edit reads no page off its path: neither the index nor the paths walk the tree', () => {
    let reads = 0;
    const watched = (page: TreePage): TreePage => {
      const { pages, ...fields } = page;
      return Object.defineProperty({ ...fields } as TreePage, 'pages', {
        enumerable: true,
        get: () => {
          reads += 1;
          return pages;
        },
      });
    };
    const sections = Array.from({ length: 20 }, (_, i) => ({ ...fresh(30), slug: `s${i}` }));
    const pages = sections.map((s, i) => (i === 0 ? s : watched(s)));
    indexPages(pages);
    pagePaths(pages);
    const target = sections[0]!.pages[7]!;
    reads = 0;
    const edited = updatePage(pages, target.id, (p) => ({ ...p, title: 'Edited', document: 'sha' }))!;
    const again = replacePages(edited, new Set([target.id]), (p) => ({ ...p, description: 'd' }));
    expect(indexPages(again).get(target.id)?.page.description).toBe('d');
    expect(indexPages(again).get(sections[5]!.pages[3]!.id)?.parentId).toBe(sections[5]!.id);
    expect(pagePaths(again).get(target.id)).toEqual(pagePaths(pages).get(target.id));
    expect(reads).toBe(0);
  });
});

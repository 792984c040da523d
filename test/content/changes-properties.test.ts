import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentChange, ContentTree, TreePage } from '../../src/model/index.js';
import { extractLinks, indexPages, pagePaths, walkPages } from '../../src/content/index.js';
import { treeArb } from './tree-arbitraries.js';
import { apply, context, ok, text } from './changes-helpers.js';

const titles = fc.constantFrom('Intro', 'Guide', 'Guide', 'Setup', 'Café', '日本語', 'a/b', '..', '');
const slugs = fc.option(fc.constantFrom('intro', 'guide', 'x', '', 'a/b', 'p0001-s0'), { nil: undefined });

/** A change that names pages by a pick into the tree (or a made-up id), so many are invalid. */
const changeArb = (ids: string[]): fc.Arbitrary<ContentChange> => {
  const pageId = ids.length > 0 ? fc.oneof(fc.constantFrom(...ids), fc.constant('ghost')) : fc.constant('ghost');
  const maybeParent = fc.option(pageId, { nil: undefined });
  return fc.oneof(
    fc
      .record({
        operation: fc.constant('insert_page' as const),
        title: titles.filter((t) => t !== ''),
        slug: slugs,
        into: maybeParent,
        at: fc.option(fc.nat(4), { nil: undefined }),
        document: fc.constant({ markdown: 'text\n' }),
      })
      .map((c) => JSON.parse(JSON.stringify(c)) as ContentChange),
    fc
      .record({
        operation: fc.constant('update_page' as const),
        page: pageId,
        title: fc.option(
          titles.filter((t) => t !== ''),
          { nil: undefined },
        ),
        slug: slugs,
        into: fc.option(fc.option(pageId, { nil: null }), { nil: undefined }),
        at: fc.option(fc.nat(4), { nil: undefined }),
      })
      .map((c) => JSON.parse(JSON.stringify(c)) as ContentChange),
    fc.record({ operation: fc.constant('delete_page' as const), page: pageId }),
    fc.record({ operation: fc.constant('revert_page' as const), page: pageId }),
  );
};

const batchArb = treeArb.chain((tree) => {
  const ids = [...walkPages(tree.pages)].map((p) => p.id);
  return fc.tuple(fc.constant(tree), fc.array(changeArb(ids), { minLength: 1, maxLength: 12 }));
});

function assertValidTree(tree: ContentTree): void {
  const ids = [...walkPages(tree.pages)].map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  const visit = (pages: TreePage[]) => {
    const slugsHere = pages.map((p) => p.slug);
    expect(new Set(slugsHere).size, `siblings ${slugsHere.join(',')}`).toBe(slugsHere.length);
    pages.forEach((p) => visit(p.pages));
  };
  visit(tree.pages);
}

describe('applyChanges properties', () => {
  it('never produces duplicate ids or slugs shared by siblings', () => {
    fc.assert(
      fc.property(batchArb, ([tree, changes]) => {
        const result = apply(tree, changes, context({ revisions: new Map([['base', tree]]) }));
        if (result.ok) assertValidTree(result.tree);
        else expect(result.message.startsWith(`changes[${result.index}]: `)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves the input tree untouched, whether the batch fails or not', () => {
    fc.assert(
      fc.property(batchArb, ([tree, changes]) => {
        const before = structuredClone(tree);
        apply(tree, changes, context({ revisions: new Map([['base', tree]]) }));
        expect(tree).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });

  it('fails as a whole on the first bad change, whatever came before it', () => {
    fc.assert(
      fc.property(batchArb, fc.nat(12), ([tree, changes], at) => {
        const bad: ContentChange = { operation: 'delete_page', page: 'no-such-page' };
        const index = Math.min(at, changes.length);
        const batch = [...changes.slice(0, index), bad, ...changes.slice(index)];
        const result = apply(tree, batch, context({ revisions: new Map([['base', tree]]) }));
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.index).toBeLessThanOrEqual(index);
      }),
      { numRuns: 200 },
    );
  });

  it('resolves refs between inserted pages whatever the order of the inserts', () => {
    const setArb = fc
      .integer({ min: 2, max: 6 })
      .chain((n) =>
        fc.tuple(
          fc.constant(n),
          fc.array(fc.array(fc.nat(n - 1), { maxLength: 3 }), { minLength: n, maxLength: n }),
          fc.array(fc.option(fc.nat(n - 1), { nil: undefined }), { minLength: n, maxLength: n }),
          fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
        ),
      );
    fc.assert(
      fc.property(setArb, ([n, links, parents, order]) => {
        // Page k links to the refs in links[k]; pages are inserted in `order`, some under earlier ones.
        const inserted: number[] = [];
        const changes: ContentChange[] = order.map((k) => {
          const parent = parents[k];
          const into = parent !== undefined && inserted.includes(parent) ? parent : undefined;
          inserted.push(k);
          return {
            operation: 'insert_page',
            ref: `r${k}`,
            title: `Page ${k}`,
            document: { markdown: links[k]!.map((t) => `[to ${t}](./r${t}.md)`).join(' ') + '\n' },
            ...(into !== undefined ? { into: `__ref${into}` } : {}),
          } as ContentChange;
        });
        // `into` takes ids, not refs: resolve them to the ids the context will hand out.
        const idOf = new Map(order.map((k, i) => [k, `new${i + 1}`]));
        for (const change of changes)
          if (change.operation === 'insert_page' && change.into) change.into = idOf.get(Number(change.into.slice(5)))!;
        const result = ok(apply({ pages: [], files: [], variables: {}, reusableContents: [] }, changes));
        const paths = pagePaths(result.tree.pages);
        expect(indexPages(result.tree.pages).size).toBe(n);
        for (const k of order) {
          const id = idOf.get(k)!;
          const own = paths.get(id)!.gitPath!;
          const dir = own.includes('/') ? own.slice(0, own.lastIndexOf('/') + 1) : '';
          const found = extractLinks(text(result, id) ?? '');
          expect(found.map((l) => l.text)).toEqual(links[k]!.map((t) => `to ${t}`));
          found.forEach((link, i) => {
            const target = paths.get(idOf.get(links[k]![i]!)!)!.gitPath!;
            const resolved = new URL(link.url, `http://x/${dir}`).pathname.slice(1);
            expect(resolved).toBe(target);
          });
        }
      }),
      { numRuns: 100 },
    );
  });
});

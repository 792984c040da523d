import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentChange, ContentTree, TreePage } from '../../src/model/index.js';
import {
  extractLinks,
  indexRevision,
  pagePaths,
  refPaths,
  renderPageMarkdown,
  resolveLink,
  splitTemplate,
  walkPages,
} from '../../src/content/index.js';
import { apply, context, ok } from './changes-helpers.js';
import { treeArb } from './tree-arbitraries.js';

/** The relative path from folder `dir` to `path`, as a Git Sync export writes links (written here independently). */
function relativePath(dir: string, path: string): string {
  const from = dir === '' ? [] : dir.split('/');
  const to = path.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common += 1;
  return [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
}

const dirOf = (path: string) => path.split('/').slice(0, -1).join('/');

interface Link {
  to: string;
  anchor: boolean;
  form: 'relative' | 'stable';
}

/** Each page's links as the writer meant them, and the batch writing them in any of the accepted forms. */
function linkBatch(
  tree: ContentTree,
  picks: readonly [number, boolean, boolean][][],
): { changes: ContentChange[]; meant: Map<string, Link[]> } {
  const pages = [...walkPages(tree.pages)];
  const paths = pagePaths(tree.pages);
  const meant = new Map<string, Link[]>();
  const changes: ContentChange[] = pages.map((page, i) => {
    const links = (picks[i % picks.length] ?? []).map(([n, anchor, stable]): Link => ({
      to: pages[n % pages.length]!.id,
      anchor,
      form: stable ? 'stable' : 'relative',
    }));
    meant.set(page.id, links);
    const own = paths.get(page.id)!.gitPath!;
    const urls = links.map((l) => {
      const hash = l.anchor ? '#part' : '';
      return l.form === 'stable' ? `/pages/${l.to}${hash}` : `${relativePath(dirOf(own), paths.get(l.to)!.gitPath!)}${hash}`;
    });
    const markdown = `## Part\n\n${urls.map((url, j) => `[link ${j}](${url})`).join(' ')}\n`;
    return { operation: 'update_page', page: page.id, document: { markdown } };
  });
  return { changes, meant };
}

type Step = { op: 'move'; pick: number; parent: number; at: number; top: boolean } | { op: 'rename'; pick: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('move' as const), pick: fc.nat(40), parent: fc.nat(40), at: fc.nat(4), top: fc.boolean() }),
  fc.record({ op: fc.constant('rename' as const), pick: fc.nat(40) }),
);

function stepChange(tree: ContentTree, step: Step, n: number): ContentChange {
  const pages = [...walkPages(tree.pages)];
  const page = pages[step.pick % pages.length]!;
  if (step.op === 'rename') return { operation: 'update_page', page: page.id, slug: `${page.id}-r${n}` };
  const into = step.top ? null : pages[step.parent % pages.length]!.id;
  return { operation: 'update_page', page: page.id, into, at: step.at };
}

/** Every link of every page, as read now, is the path from the page to what the writer meant. */
function expectLinksFollow(tree: ContentTree, stored: ReadonlyMap<string, string>, meant: ReadonlyMap<string, Link[]>): void {
  const paths = pagePaths(tree.pages);
  const index = indexRevision(tree);
  for (const page of walkPages(tree.pages)) {
    const template = page.document === undefined ? undefined : (stored.get(page.document) ?? page.document.slice(2));
    const markdown = template === undefined ? '' : renderPageMarkdown(splitTemplate(template), page.id, refPaths(tree));
    const urls = extractLinks(markdown).map((l) => l.url);
    const links = meant.get(page.id) ?? [];
    const own = paths.get(page.id)!.gitPath!;
    expect(urls).toEqual(links.map((l) => `${relativePath(dirOf(own), paths.get(l.to)!.gitPath!)}${l.anchor ? '#part' : ''}`));
    // And the rendered path resolves back to the target, as the sync tool and the listings read it.
    const ctx = { index, from: page.id, anchors: () => new Set(['part']), appPrefixes: [] };
    urls.forEach((url, j) => {
      const link = links[j]!;
      expect(resolveLink(url, ctx)).toEqual({
        status: 'ok',
        target: { kind: 'page', page: link.to, ...(link.anchor ? { anchor: 'part' } : {}) },
      });
    });
  }
}

describe('links are references', () => {
  it('after every random move and rename, every link renders as the path to its target where it now is', () => {
    fc.assert(
      fc.property(
        treeArb.filter((t) => t.pages.length > 0),
        fc.array(fc.array(fc.tuple(fc.nat(40), fc.boolean(), fc.boolean()), { maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.array(stepArb, { minLength: 1, maxLength: 8 }),
        (start, picks, steps) => {
          const stored = new Map<string, string>();
          const { changes, meant } = linkBatch(start, picks);
          const written = ok(apply(start, changes, context()));
          for (const [sha, text] of written.documents) stored.set(sha, text);
          let tree = written.tree;
          const documents = new Map([...walkPages(tree.pages)].map((p: TreePage) => [p.id, p.document]));
          expectLinksFollow(tree, stored, meant);
          steps.forEach((step, n) => {
            const result = apply(tree, [stepChange(tree, step, n)], context());
            // A move into its own subtree or onto a taken slug is refused; the tree stays as it was.
            if (!result.ok) return;
            tree = result.tree;
            expectLinksFollow(tree, stored, meant);
          });
          // Moves and renames never rewrote a linking page's stored document.
          for (const page of walkPages(tree.pages)) expect(page.document).toBe(documents.get(page.id));
        },
      ),
      { numRuns: 25 },
    );
  }, 180_000);
});

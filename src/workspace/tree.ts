import type { TreePage } from '../model/index.js';
import { pagePaths, slugify } from '../content/index.js';
import { holdsPages, type WorkspacePage } from './types.js';

/** `guides/install.md` → `install`; `guides/README.md` → `guides`; the root README → undefined. */
export function slugOfPath(path: string): string | undefined {
  const parts = path.split('/');
  const name = parts.at(-1)!;
  if (/^readme\.md$/i.test(name)) return parts.at(-2);
  return name.replace(/\.md$/i, '');
}

const toTree = (page: WorkspacePage): TreePage => ({
  id: page.id,
  type: page.type,
  title: page.title,
  slug: holdsPages(page) ? page.slug : '',
  pages: holdsPages(page) ? page.pages.map(toTree) : [],
});

/**
 * The file of every document page under the Git Sync path rules (`pagePaths`), the first
 * document page at `readme`: page id → path relative to the root.
 */
export function canonicalPaths(pages: readonly WorkspacePage[], readme: string): Map<string, string> {
  const paths = new Map<string, string>();
  let first = true;
  for (const [id, p] of pagePaths(pages.map(toTree))) {
    if (p.gitPath === undefined) continue;
    paths.set(id, first ? readme : p.gitPath);
    first = false;
  }
  return paths;
}

/**
 * A group's slug where SUMMARY.md gives none (no `<a href id>` anchor): the first folder of the
 * first of its page files that is in a folder (`files`, in SUMMARY.md order), else its title's.
 */
export function groupSlugOf(title: string, files: readonly (string | undefined)[]): string {
  return files.find((p) => p?.includes('/'))?.split('/')[0] ?? slugify(title);
}

/** Every page, depth first, with its parent. */
export function* walkPages(pages: readonly WorkspacePage[], parent?: WorkspacePage): Generator<[WorkspacePage, WorkspacePage | undefined]> {
  for (const page of pages) {
    yield [page, parent];
    if (holdsPages(page)) yield* walkPages(page.pages, page);
  }
}

/**
 * Keys that name a page by where it is in a folder, for the path index: a document's file, a
 * group's `group:<slug>`, a link's `link:<parent key>:<href>`, a computed page's
 * `computed:<parent key>` (`~2`, `~3` for repeats).
 */
export function pageKeys(pages: readonly WorkspacePage[], fileOf: (id: string) => string | undefined): Map<string, string> {
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  const visit = (list: readonly WorkspacePage[], parentKey: string) => {
    for (const page of list) {
      let key =
        page.type === 'document'
          ? (fileOf(page.id) ?? `page:${page.id}`)
          : page.type === 'group'
            ? `group:${page.slug}`
            : page.type === 'link'
              ? `link:${parentKey}:${page.href}`
              : `computed:${parentKey}`;
      if (taken.has(key)) {
        let n = 2;
        while (taken.has(`${key}~${n}`)) n += 1;
        key = `${key}~${n}`;
      }
      taken.add(key);
      keys.set(page.id, key);
      if (holdsPages(page)) visit(page.pages, key);
    }
  };
  visit(pages, '');
  return keys;
}

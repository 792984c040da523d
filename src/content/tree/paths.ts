import type { TreePage } from '../../model/index.js';
import { shapeOf, type Shape } from './shape.js';

export interface PagePaths {
  /** Slugs from the top down, joined by `/`: the page's `path` in the API. */
  path: string;
  /** File of the page in the Git Sync layout. Groups have none. */
  gitPath?: string;
}

/**
 * Paths of every page, as GitBook's Git Sync lays them out: the first document page of the
 * space is `README.md`; a page with children is `<dirs>/<slug>/README.md`; another page is
 * `<dirs>/<slug>.md`, where `<dirs>` are the slugs of its ancestors (groups included).
 * Link pages have an API path but no file.
 */
export function pagePaths(pages: readonly TreePage[]): ReadonlyMap<string, PagePaths> {
  const shape = shapeOf(pages);
  let cached = computed.get(shape);
  if (!cached) computed.set(shape, (cached = computePaths(pages)));
  return cached;
}

// Trees are never mutated (the content layer copies on write), and paths depend on the shape
// alone, so paths computed once serve every tree of that shape (a chain of document edits).
const computed = new WeakMap<Shape, ReadonlyMap<string, PagePaths>>();

function computePaths(pages: readonly TreePage[]): Map<string, PagePaths> {
  const result = new Map<string, PagePaths>();
  let firstDocument = true;
  const visit = (list: readonly TreePage[], dirs: string[]) => {
    for (const page of list) {
      const path = [...dirs, page.slug].filter((s) => s !== '').join('/');
      let gitPath: string | undefined;
      if (page.type === 'document') {
        if (firstDocument || path === '') gitPath = 'README.md';
        else if (page.pages.length > 0) gitPath = `${path}/README.md`;
        else gitPath = `${path}.md`;
        firstDocument = false;
      }
      result.set(page.id, gitPath === undefined ? { path } : { path, gitPath });
      visit(page.pages, page.slug === '' ? dirs : [...dirs, page.slug]);
    }
  };
  visit(pages, []);
  return result;
}

/** The folder of a file path (`guides/install.md` → `guides`; a top-level file → ``). */
export const dirOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/**
 * Joins a relative path onto a folder of the space, resolving `.` and `..`. Undefined when `..`
 * climbs out of the space's root: such a path names nothing in it.
 */
export function joinPath(dir: string, relative: string): string | undefined {
  const parts = dir === '' ? [] : dir.split('/');
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

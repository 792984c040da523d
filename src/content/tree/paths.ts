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
 * A document page that keeps the file its folder had (`gitPath`) is there instead, unless that
 * file is not one a page can be (see `isPageGitPath`) or is taken: by any page's rule path, or
 * by a page before it in tree order that keeps the same file.
 * Link pages have an API path but no file.
 */
export function pagePaths(pages: readonly TreePage[]): ReadonlyMap<string, PagePaths> {
  const shape = shapeOf(pages);
  let cached = computed.get(shape);
  if (!cached) computed.set(shape, (cached = computePaths(pages)));
  return cached;
}

// Trees are never mutated (the content layer copies on write), and paths depend on the shape
// alone (page-index.ts counts a kept file as shape), so paths computed once serve every tree of
// that shape (a chain of document edits).
const computed = new WeakMap<Shape, ReadonlyMap<string, PagePaths>>();

/**
 * A file a document page can be kept at: a relative `.md` path of plain segments, outside
 * `.gitbook/`, and not `SUMMARY.md` at the top (the table of contents).
 */
export function isPageGitPath(path: string): boolean {
  const parts = path.split('/');
  return (
    /\.md$/i.test(path) &&
    path.length <= 1024 &&
    parts.every((p) => p !== '' && p !== '.' && p !== '..' && !p.includes('\u0000') && !p.includes('\\')) &&
    parts[0] !== '.gitbook' &&
    !/^summary\.md$/i.test(path)
  );
}

function computePaths(pages: readonly TreePage[]): Map<string, PagePaths> {
  const result = new Map<string, PagePaths>();
  const kept: [string, string][] = [];
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
        if (page.gitPath !== undefined && page.gitPath !== gitPath && isPageGitPath(page.gitPath)) kept.push([page.id, page.gitPath]);
      }
      result.set(page.id, gitPath === undefined ? { path } : { path, gitPath });
      visit(page.pages, page.slug === '' ? dirs : [...dirs, page.slug]);
    }
  };
  visit(pages, []);
  if (kept.length === 0) return result;
  // No kept file is any page's rule path, so a page whose kept file is refused always has its own.
  const taken = new Set<string>();
  for (const p of result.values()) if (p.gitPath !== undefined) taken.add(p.gitPath);
  for (const [id, file] of kept) {
    if (taken.has(file)) continue;
    taken.add(file);
    result.set(id, { path: result.get(id)!.path, gitPath: file });
  }
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

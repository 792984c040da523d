import { ASSETS_DIR, type ContentTree } from '../../model/index.js';
import { pagePaths, type PagePaths } from '../tree/paths.js';
import { rewriteLinks } from './link-rewrite.js';
import { parsePlaceholder } from './resolve-link.js';

/** A path from the folder `fromDir` to `to` (both relative to the space root), `../` as needed. */
export function relativePath(fromDir: string, to: string): string {
  const from = fromDir === '' ? [] : fromDir.split('/');
  const target = to.split('/');
  let common = 0;
  while (common < from.length && common < target.length - 1 && from[common] === target[common]) common += 1;
  return [...from.slice(common).map(() => '..'), ...target.slice(common)].join('/');
}

// Only what would change the meaning of the path when read back is escaped, so slugs stay legible.
const escapePath = (path: string) => path.replace(/[%#?]/g, (c) => encodeURIComponent(c));

export interface FinalPaths {
  pages: ReadonlyMap<string, PagePaths>;
  fileGitPath: ReadonlyMap<string, string>;
}

// Files arrays are never mutated either; a chain of page edits keeps the same one.
const fileGitPaths = new WeakMap<ContentTree['files'], ReadonlyMap<string, string>>();

/** Where pages and files of the final tree are (both cached: shared by trees of one shape). */
export function finalPaths(tree: ContentTree): FinalPaths {
  let files = fileGitPaths.get(tree.files);
  if (!files) fileGitPaths.set(tree.files, (files = new Map(tree.files.map((f) => [f.id, `${ASSETS_DIR}/${f.name}`]))));
  return { pages: pagePaths(tree.pages), fileGitPath: files };
}

/**
 * Turns the placeholders of a page's document into paths relative to the page's git file, as
 * Git Sync writes links (`../guides/install.md#setup`, `../.gitbook/assets/logo.png`). A target
 * without a file (a group, a link page) or gone by the end of the batch becomes text.
 */
export function renderLinks(template: string, pageId: string, paths: FinalPaths): string {
  const own = paths.pages.get(pageId)?.gitPath ?? 'README.md';
  const dir = own.includes('/') ? own.slice(0, own.lastIndexOf('/')) : '';
  return rewriteLinks(template, (url) => {
    const target = parsePlaceholder(url);
    if (!target) return { kind: 'keep' };
    const to = target.kind === 'file' ? paths.fileGitPath.get(target.id) : paths.pages.get(target.id)?.gitPath;
    if (to === undefined) return { kind: 'text' };
    const anchor = target.kind === 'page' && target.anchor !== undefined ? `#${encodeURIComponent(target.anchor)}` : '';
    return { kind: 'url', url: `${escapePath(relativePath(dir, to))}${anchor}` };
  });
}

import { ASSETS_DIR, type ContentTree } from '../../model/index.js';
import { pagePaths, type PagePaths } from '../tree/paths.js';
import type { StoredRef, TemplateParts } from './stored-ref.js';
import { renderTemplate } from './stored-ref.js';

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

/** A link destination as markdown accepts it: angle brackets when it holds spaces or parentheses. */
export function formatDestination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

/** Where the pages and files of one tree are, for rendering references. */
export interface RefPaths {
  pages: ReadonlyMap<string, PagePaths>;
  /** `.gitbook/assets/<name>` by file id. */
  fileGitPath: ReadonlyMap<string, string>;
}

// Files arrays are never mutated; a chain of page edits keeps the same one.
const fileGitPaths = new WeakMap<ContentTree['files'], ReadonlyMap<string, string>>();

/** The paths of a tree (both parts cached: shared by trees of one shape, one files array). */
export function refPaths(tree: ContentTree): RefPaths {
  let files = fileGitPaths.get(tree.files);
  if (!files) fileGitPaths.set(tree.files, (files = new Map(tree.files.map((f) => [f.id, `${ASSETS_DIR}/${f.name}`]))));
  return { pages: pagePaths(tree.pages), fileGitPath: files };
}

/** The Git Sync path of a reference's target in `paths`, or undefined when it has none there. */
export function targetGitPath(ref: Pick<StoredRef, 'kind' | 'id'>, paths: RefPaths): string | undefined {
  return ref.kind === 'file' ? paths.fileGitPath.get(ref.id) : paths.pages.get(ref.id)?.gitPath;
}

/**
 * A reference as Git Sync writes a link from the file `ownGitPath`: a path relative to its folder
 * (`../guides/install.md#setup`, `../.gitbook/assets/logo.png`). A target gone from `paths` (or
 * without a file) renders as its last known path, so the link stays readable and shows what it meant.
 */
export function refDestination(ref: StoredRef, ownGitPath: string, paths: RefPaths): string {
  const dir = ownGitPath.includes('/') ? ownGitPath.slice(0, ownGitPath.lastIndexOf('/')) : '';
  const to = targetGitPath(ref, paths) ?? ref.path;
  const anchor = ref.kind === 'page' && ref.anchor !== undefined ? `#${encodeURIComponent(ref.anchor)}` : '';
  // Written as a folder (`../guides/`, `./`) and still a README: the folder again, as GitBook does.
  if (ref.kind === 'page' && ref.folder && /(?:^|\/)README\.md$/.test(to)) {
    const folder = relativePath(dir, to).slice(0, -'README.md'.length);
    return formatDestination(`${escapePath(folder === '' ? './' : folder)}${anchor}`);
  }
  return formatDestination(`${escapePath(relativePath(dir, to))}${anchor}`);
}

/** A page's stored document as markdown: each reference rendered from where the page now is. */
export function renderPageMarkdown(parts: TemplateParts, pageId: string, paths: RefPaths): string {
  if (parts.length === 1) return parts[0] as string;
  const own = paths.pages.get(pageId)?.gitPath ?? 'README.md';
  return renderTemplate(parts, (ref) => refDestination(ref, own, paths));
}

/** A reusable content's stored body as markdown: each reference rendered from its include file (`.gitbook/includes/<name>`). */
export function renderIncludeMarkdown(parts: TemplateParts, paths: RefPaths): string {
  if (parts.length === 1) return parts[0] as string;
  // Every include file is in one folder, so the name never changes a relative path.
  return renderTemplate(parts, (ref) => refDestination(ref, '.gitbook/includes/_.md', paths));
}

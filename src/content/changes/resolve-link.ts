import type { ContentTree } from '../../model/index.js';
import { ASSETS_DIR } from '../../model/index.js';
import { classifyLink } from '../markdown/links.js';
import { dirOf, joinPath, pagePaths } from '../tree/paths.js';
import { shapeOf, type Shape } from '../tree/shape.js';
import type { LinkDecision } from './link-rewrite.js';

/**
 * Links resolved while a batch is applied are parked as `x-docsync-ref:` placeholders naming the
 * target by id; once the whole batch is applied they become paths in the final tree (or text,
 * when the target is gone). The scheme cannot clash with a resolvable link: anything with a
 * scheme is external.
 */
export const PLACEHOLDER = 'x-docsync-ref:';

/** `folder`: the link was written as the page's folder (`../guides/`), GitBook's form for a README. */
export type Target = { kind: 'page'; id: string; anchor?: string; folder?: true } | { kind: 'file'; id: string };

export const placeholder = (target: Target): string =>
  `${PLACEHOLDER}${target.kind === 'page' && target.folder ? 'folder' : target.kind}/${encodeURIComponent(target.id)}${target.kind === 'page' && target.anchor !== undefined ? `#${encodeURIComponent(target.anchor)}` : ''}`;

export function parsePlaceholder(url: string): Target | undefined {
  const match = /^x-docsync-ref:(page|folder|file)\/([^#]*)(?:#(.*))?$/.exec(url);
  if (!match) return undefined;
  const id = decodeURIComponent(match[2]!);
  if (match[1] === 'file') return { kind: 'file', id };
  const page: Target = match[3] === undefined ? { kind: 'page', id } : { kind: 'page', id, anchor: decodeURIComponent(match[3]) };
  if (match[1] === 'folder') page.folder = true;
  return page;
}

/** Where links can point, seen from one page at one moment of the batch. */
export interface LinkScope {
  /** Page git path (`guides/README.md`) and API path (`guides`) to page id. */
  byGitPath: ReadonlyMap<string, string>;
  byPath: ReadonlyMap<string, string>;
  pageIds: ReadonlySet<string>;
  /** `.gitbook/assets/<name>` to file id (the first file of that name). */
  fileByPath: ReadonlyMap<string, string>;
  fileIds: ReadonlySet<string>;
  /** Batch refs: page refs and file refs, already given their ids. */
  refs: Map<string, Target>;
}

// Trees are never mutated, so the lookups of one pages (or files) array stay true while it
// lives; a batch parks many documents against the same tree and must not walk it each time.
// Page lookups depend on the tree's shape alone, so edits that keep it share them.
const pageLookups = new WeakMap<Shape, Pick<LinkScope, 'byGitPath' | 'byPath' | 'pageIds'>>();
const fileLookups = new WeakMap<ContentTree['files'], Pick<LinkScope, 'fileByPath' | 'fileIds'>>();

/** Page lookups of a tree: by git path, by API path (the first page with it), and the ids. */
export function pagesOf(pages: ContentTree['pages']): Pick<LinkScope, 'byGitPath' | 'byPath' | 'pageIds'> {
  const shape = shapeOf(pages);
  let found = pageLookups.get(shape);
  if (found) return found;
  const byGitPath = new Map<string, string>();
  const byPath = new Map<string, string>();
  const paths = pagePaths(pages);
  for (const [id, p] of paths) {
    if (p.gitPath !== undefined) byGitPath.set(p.gitPath, id);
    if (!byPath.has(p.path)) byPath.set(p.path, id);
  }
  found = { byGitPath, byPath, pageIds: new Set(paths.keys()) };
  pageLookups.set(shape, found);
  return found;
}

function filesOf(files: ContentTree['files']): Pick<LinkScope, 'fileByPath' | 'fileIds'> {
  let found = fileLookups.get(files);
  if (found) return found;
  const fileByPath = new Map<string, string>();
  for (const file of files) {
    const path = `${ASSETS_DIR}/${file.name}`;
    if (!fileByPath.has(path)) fileByPath.set(path, file.id);
  }
  found = { fileByPath, fileIds: new Set(files.map((f) => f.id)) };
  fileLookups.set(files, found);
  return found;
}

export function linkScope(tree: ContentTree, refs: Map<string, Target>): LinkScope {
  return { ...pagesOf(tree.pages), ...filesOf(tree.files), refs };
}

/** `a/b/../c` to `a/c`; undefined when the path climbs out of the space. */
export const normalisePath = (path: string): string | undefined => joinPath('', path);

function byFilePath(scope: LinkScope, path: string, anchor: string | undefined): Target | undefined {
  const page =
    scope.byGitPath.get(path) ??
    (path.endsWith('.md')
      ? undefined
      : (scope.byGitPath.get(path === '' ? 'README.md' : `${path}/README.md`) ?? scope.byGitPath.get(`${path}.md`)));
  if (page !== undefined) return anchor === undefined ? { kind: 'page', id: page } : { kind: 'page', id: page, anchor };
  const file = scope.fileByPath.get(path);
  return file === undefined ? undefined : { kind: 'file', id: file };
}

/**
 * What a link in submitted markdown points at (api-gaps 3.3): `/pages/<id>`, `/pages/<slug path>`,
 * `/pages/<git path>.md`, `/files/<id>`, a batch ref (`./<ref>.md`, `./<ref>`), or a path
 * relative to the page's own git file (`../other.md`, `./section`, `../.gitbook/assets/x.png`).
 * External URLs and same-page anchors are kept, and so is a link that resolves to nothing (an
 * image whose asset is not in the space, a page not written yet, a path out of the space): the
 * published API makes it plain text, but the writer's text is kept as written, stored as text
 * (not a reference) and listed as broken by the links listing (docs/api.md).
 */
export function resolveLink(url: string, fromGitPath: string, scope: LinkScope, kind: 'link' | 'image' | 'definition'): LinkDecision {
  const target = classifyLink(url.trim());
  const decide = (found: Target | undefined): LinkDecision => (found ? { kind: 'url', url: placeholder(found) } : { kind: 'keep' });
  switch (target.type) {
    case 'external':
      // `data:` images are not ingested (upload the bytes with insert_files).
      return /^data:/i.test(target.url) && kind === 'image' ? { kind: 'text' } : { kind: 'keep' };
    case 'anchor':
      return { kind: 'keep' };
    case 'absolute-path': {
      const { path, anchor } = target;
      const withAnchor = (id: string): Target => (anchor === undefined ? { kind: 'page', id } : { kind: 'page', id, anchor });
      if (path.startsWith('/files/')) {
        const id = path.slice('/files/'.length);
        return decide(scope.fileIds.has(id) ? { kind: 'file', id } : undefined);
      }
      if (!path.startsWith('/pages/')) return { kind: 'keep' };
      const rest = path.slice('/pages/'.length).replace(/\/+$/, '');
      if (scope.pageIds.has(rest)) return decide(withAnchor(rest));
      const id = rest.endsWith('.md') ? scope.byGitPath.get(rest) : scope.byPath.get(rest);
      return decide(id === undefined ? undefined : withAnchor(id));
    }
    case 'relative': {
      const { path, anchor } = target;
      const bare = path.replace(/^\.\//, '');
      const ref = scope.refs.get(bare.endsWith('.md') ? bare.slice(0, -3) : bare) ?? scope.refs.get(bare);
      if (ref) return decide(ref.kind === 'page' && anchor !== undefined ? { ...ref, anchor } : ref);
      const resolved = joinPath(dirOf(fromGitPath), path);
      const found = resolved === undefined ? undefined : byFilePath(scope, resolved, anchor);
      // `../guides/`, `./`: a folder, which names its README; written so again (ref-paths.ts).
      if (found?.kind === 'page' && (path.endsWith('/') || path === '.' || path === '')) found.folder = true;
      return decide(found);
    }
  }
}

import type { Kysely } from 'kysely';
import { includeNames, pagePaths, refPaths, renderIncludeMarkdown } from '../../content/index.js';
import type { ContentTree, TreePage } from '../../model/index.js';
import type { RenderSite, SitePage } from '../../render/index.js';
import type { Database } from '../store/schema.js';
import { getBlobs } from '../store/blobs.js';
import { Lru } from './lru.js';
import { templateOf } from '../revisions/stored-documents.js';

export interface SpaceSite {
  site: RenderSite;
  /** Document pages and the tree's page, by page id. */
  byId: Map<string, { site: SitePage; tree: TreePage }>;
  /** By API path (`guides/install`): the published sites' URLs. */
  byPath: Map<string, SitePage>;
  /** The first document page: a space's home. */
  first: SitePage | undefined;
}

export interface SpaceSiteOptions {
  title: string;
  /** The URL of a document page. */
  pageUrl: (page: TreePage, apiPath: string) => string;
  /** Prefix of asset URLs (`.gitbook/assets/a.png` follows it). */
  assetBase: string;
  /** A page visitors must not see (published sites: hidden by condition); left out with its subtree. */
  skip?: (page: TreePage) => boolean;
}

// A revision never changes: its site, for one way of writing URLs, is built once.
const built = new Lru<string, Promise<SpaceSite>>(64);

/**
 * A revision's content as the renderer's site: the page tree with each page's Git Sync file (the
 * stored markdown links pages by those paths) and URL, the space's variables, reusable contents
 * as `.gitbook/includes/<name>` and files as `.gitbook/assets/<name>`. Cached per
 * `key` (the revision and the URL scheme).
 */
export function spaceSite(db: Kysely<Database>, key: string, tree: ContentTree, options: SpaceSiteOptions): Promise<SpaceSite> {
  let found = built.get(key);
  if (!found) {
    found = buildSpaceSite(db, tree, options);
    built.set(key, found);
    found.catch(() => built.delete(key));
  }
  return found;
}

async function buildSpaceSite(db: Kysely<Database>, tree: ContentTree, options: SpaceSiteOptions): Promise<SpaceSite> {
  const paths = pagePaths(tree.pages);
  const byId = new Map<string, { site: SitePage; tree: TreePage }>();
  const byPath = new Map<string, SitePage>();
  let first: SitePage | undefined;
  const convert = (page: TreePage): SitePage[] => {
    if (options.skip?.(page)) return [];
    const children = () => page.pages.flatMap(convert);
    if (page.type === 'link') return [{ id: page.id, kind: 'link', title: page.title, url: page.href ?? '#', pages: [] }];
    if (page.type === 'group') return [{ id: page.id, kind: 'group', title: page.title, url: '', pages: children() }];
    if (page.type === 'computed') return [{ id: page.id, kind: 'group', title: page.title, url: '', pages: [] }];
    const p = paths.get(page.id);
    const apiPath = p?.path ?? page.slug;
    const site: SitePage = {
      id: page.id,
      kind: 'document',
      title: page.title,
      url: options.pageUrl(page, apiPath),
      pages: [],
      ...(p?.gitPath !== undefined ? { path: p.gitPath } : {}),
      ...(page.linkTitle !== undefined ? { linkTitle: page.linkTitle } : {}),
      ...(page.hidden ? { hidden: true } : {}),
      ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
      ...(page.icon !== undefined ? { icon: page.icon } : {}),
      ...(page.description !== undefined ? { description: page.description } : {}),
      ...(page.layout !== undefined ? { layout: page.layout } : {}),
      ...(page.variables !== undefined ? { variables: page.variables } : {}),
      ...(page.cover !== undefined ? { cover: coverOf(page, tree) } : {}),
    };
    first ??= page.hidden ? undefined : site;
    byId.set(page.id, { site, tree: page });
    byPath.set(apiPath, site);
    site.pages = children();
    return [site];
  };
  const pages = tree.pages.flatMap(convert);
  const names = includeNames(tree.reusableContents);
  const bodies = await getBlobs(
    db,
    tree.reusableContents.flatMap((c) => (c.document === undefined ? [] : [c.document])),
  );
  const includes = new Map<string, string>();
  const refs = refPaths(tree);
  tree.reusableContents.forEach((content, i) => {
    const stored = content.document === undefined ? '' : (bodies.get(content.document)?.toString('utf8') ?? '');
    // Links stored as references are rendered from the include's file, as a clone writes it.
    const markdown = content.document === undefined ? '' : renderIncludeMarkdown(templateOf(content.document, stored), refs);
    includes.set(`.gitbook/includes/${names[i]!}`, markdown);
  });
  const assets = new Set(tree.files.map((f) => `.gitbook/assets/${f.name}`));
  return {
    site: { title: options.title, pages, variables: tree.variables, includes, assets, assetBase: options.assetBase },
    byId,
    byPath,
    first,
  };
}

/** A cover naming a file of the space by id, as that asset's path. */
function coverOf(page: TreePage, tree: ContentTree): SitePage['cover'] {
  const cover = page.cover!;
  if (cover.ref?.kind !== 'file') return { ...cover };
  const fileId = cover.ref.file;
  const file = tree.files.find((f) => f.id === fileId);
  return file
    ? { ...cover, ref: { kind: 'file', file: `.gitbook/assets/${file.name}` } }
    : ({ ...cover, ref: undefined } as SitePage['cover']);
}

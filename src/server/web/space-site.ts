import type { Kysely } from 'kysely';
import { includeNames, pagePaths, refPaths, renderIncludeMarkdown, walkPages, type GeneratedPage } from '../../content/index.js';
import type { ContentTree, TreePage } from '../../model/index.js';
import type { RenderSite, SitePage } from '../../render/index.js';
import type { Database } from '../store/schema.js';
import { getBlobs } from '../store/blobs.js';
import { Lru } from './lru.js';
import { templateOf } from '../revisions/stored-documents.js';
import { generateReferences, openApiSource, specVersions, type GeneratedReference } from '../openapi/reference.js';

/** A document page of the site: its renderer page and tree page; pages an OpenAPI reference generates carry their markdown. */
export interface SpaceSiteEntry {
  site: SitePage;
  tree: TreePage;
  /** The markdown of a generated page (none is stored). */
  generated?: string;
}

export interface SpaceSite {
  site: RenderSite;
  /** Document pages and the tree's page, by page id (generated pages included). */
  byId: Map<string, SpaceSiteEntry>;
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
  /**
   * The space's organization: its OpenAPI computed pages then list the pages they generate (from
   * the latest processed version of each spec), which open like any page.
   */
  orgId?: string;
}

// Page arrays are never mutated (a tree of one shape shares them): asked once per array.
const withReference = new WeakMap<ContentTree['pages'], boolean>();

/** True when the tree has an OpenAPI computed page (its site then lists generated pages). */
export function hasOpenApiPage(tree: ContentTree): boolean {
  let found = withReference.get(tree.pages);
  if (found === undefined) {
    found = [...walkPages(tree.pages)].some((p) => openApiSource(p) !== undefined);
    withReference.set(tree.pages, found);
  }
  return found;
}

// A revision never changes: its site, for one way of writing URLs, is built once.
const built = new Lru<string, Promise<SpaceSite>>(64);

/**
 * A revision's content as the renderer's site: the page tree with each page's Git Sync file (the
 * stored markdown links pages by those paths) and URL, the space's variables, reusable contents
 * as `.gitbook/includes/<name>` and files as `.gitbook/assets/<name>`. Cached per
 * `key` (the revision and the URL scheme).
 */
export async function spaceSite(db: Kysely<Database>, key: string, tree: ContentTree, options: SpaceSiteOptions): Promise<SpaceSite> {
  // A tree with OpenAPI computed pages lists what they generate: its site changes with the specs' versions.
  const hasReference = options.orgId !== undefined && hasOpenApiPage(tree);
  const full = hasReference ? `${key}|${await specVersions(db, options.orgId!)}` : key;
  let found = built.get(full);
  if (!found) {
    found = (async () => {
      const generated = hasReference ? await generateReferences(db, options.orgId!, tree) : undefined;
      return buildSpaceSite(db, tree, options, generated);
    })();
    built.set(full, found);
    found.catch(() => built.delete(full));
  }
  return found;
}

async function buildSpaceSite(
  db: Kysely<Database>,
  tree: ContentTree,
  options: SpaceSiteOptions,
  generated: ReadonlyMap<string, GeneratedReference> | undefined,
): Promise<SpaceSite> {
  const paths = pagePaths(tree.pages);
  const byId = new Map<string, SpaceSiteEntry>();
  const byPath = new Map<string, SitePage>();
  let first: SitePage | undefined;
  const convert = (page: TreePage): SitePage[] => {
    if (options.skip?.(page)) return [];
    const children = () => page.pages.flatMap(convert);
    if (page.type === 'link') return [{ id: page.id, kind: 'link', title: page.title, url: page.href ?? '#', pages: [] }];
    if (page.type === 'group') return [{ id: page.id, kind: 'group', title: page.title, url: '', pages: children() }];
    if (page.type === 'computed') {
      const ref = generated?.get(page.id);
      const base = paths.get(page.id)?.path ?? page.slug;
      return [{ id: page.id, kind: 'group', title: page.title, url: '', pages: (ref?.pages ?? []).map((g) => convertGenerated(g, base)) }];
    }
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
  // A generated page opens at its path below the computed page's, as content reads place it;
  // a stored page at the same path is the one found there (as by the API's path read).
  const generatedPaths: [string, SitePage][] = [];
  const convertGenerated = (page: GeneratedPage, parentPath: string): SitePage => {
    const apiPath = parentPath === '' ? page.slug : `${parentPath}/${page.slug}`;
    const treePage: TreePage = { id: page.id, type: 'document', title: page.title, slug: page.slug, pages: [] };
    const site: SitePage = { id: page.id, kind: 'document', title: page.title, url: options.pageUrl(treePage, apiPath), pages: [] };
    first ??= site;
    byId.set(page.id, { site, tree: treePage, generated: page.markdown });
    generatedPaths.push([apiPath, site]);
    site.pages = page.pages.map((child) => convertGenerated(child, apiPath));
    return site;
  };
  const pages = tree.pages.flatMap(convert);
  for (const [path, site] of generatedPaths) if (!byPath.has(path)) byPath.set(path, site);
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

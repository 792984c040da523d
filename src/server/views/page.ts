import { assertNever, DEFAULT_PAGE_LAYOUT, type PageCover, type RevisionPage, type TreePage } from '../../model/index.js';
import type { GeneratedPage, JsonDocument, PagePaths } from '../../content/index.js';

/** The content fields of a document page: its markdown or its JSON document. */
export type PageBody = { markdown: string } | { document: JsonDocument };

export interface PageViewContext {
  /** API and Git Sync paths of every page of the revision (content's `pagePaths`). */
  paths: ReadonlyMap<string, PagePaths>;
  /** The page's location in the app. */
  appURL: (pageId: string) => string;
  /** False omits `git` (the published `metadata=false`). */
  metadata: boolean;
  /** The page's body; without it pages carry none (link locations). */
  body?: (page: TreePage) => PageBody;
  /** True renders `pages: []` instead of the children (link locations name one page). */
  shallow?: boolean;
  /** Git blob id of the page's stored markdown (the empty blob for a page without one). */
  gitOid: (page: TreePage) => string;
  /** The pages each OpenAPI computed page generated (by its id), and their body; none without. */
  generated?: ReadonlyMap<string, { spec: string; pages: GeneratedPage[] }>;
  generatedBody?: (markdown: string) => PageBody;
}

function coverView(cover: PageCover): NonNullable<RevisionPage['cover']> {
  return {
    ...(cover.ref ? { ref: cover.ref } : {}),
    ...(cover.refDark ? { refDark: cover.refDark } : {}),
    yPos: cover.yPos ?? 0,
    ...(cover.height !== undefined ? { height: cover.height } : {}),
  };
}

/**
 * The fields every page type has. Pages are built by assignment, not by stacked spreads: a
 * revision read renders thousands of pages and the spreads were most of its time.
 */
function common(page: TreePage): Record<string, unknown> {
  const view: Record<string, unknown> = { id: page.id, title: page.title };
  if (page.emoji !== undefined && page.emoji !== '') view.emoji = page.emoji;
  if (page.icon !== undefined && page.icon !== '') view.icon = page.icon;
  if (page.createdAt !== undefined) view.createdAt = page.createdAt;
  if (page.updatedAt !== undefined) view.updatedAt = page.updatedAt;
  // The published API returns it to user and OAuth tokens, the only ones content reads take here.
  if (page.condition !== undefined && page.condition !== '') view.condition = page.condition;
  return view;
}

const flags = (page: TreePage) => ({
  hidden: page.hidden ?? false,
  noIndex: page.noIndex ?? false,
  noRobotsIndex: page.noRobotsIndex ?? false,
});

/**
 * A stored page as the published RevisionPage of its type. Document pages get every layout
 * option (stored ones over the defaults), `tags: []` (docsync has no tags) and their body.
 */
export function pageView(page: TreePage, ctx: PageViewContext): RevisionPage {
  const paths = ctx.paths.get(page.id);
  const path = paths?.path ?? page.slug;
  switch (page.type) {
    case 'document': {
      const gitPath = paths?.gitPath;
      const view = common(page);
      view.type = 'document';
      view.kind = 'sheet';
      view.urls = { app: ctx.appURL(page.id) };
      view.slug = page.slug;
      view.path = path;
      if (page.linkTitle !== undefined && page.linkTitle !== '') view.linkTitle = page.linkTitle;
      if (page.description !== undefined) view.description = page.description;
      view.pages = ctx.shallow ? [] : pagesView(page.pages, ctx);
      if (ctx.metadata && gitPath !== undefined) view.git = { oid: ctx.gitOid(page), path: gitPath };
      view.layout = page.layout ? { ...DEFAULT_PAGE_LAYOUT, ...page.layout } : { ...DEFAULT_PAGE_LAYOUT };
      const explicit = Object.entries(page.layout ?? {})
        .filter(([key, value]) => DEFAULT_PAGE_LAYOUT[key as keyof typeof DEFAULT_PAGE_LAYOUT] === value)
        .map(([key]) => key);
      if (explicit.length > 0) view.explicitLayout = explicit;
      if (page.frontMatter !== undefined) view.frontMatter = page.frontMatter;
      if (page.titleHeading === false) view.titleHeading = false;
      if (page.cover) view.cover = coverView(page.cover);
      if (page.variables && Object.keys(page.variables).length > 0) view.variables = page.variables;
      view.hidden = page.hidden ?? false;
      view.noIndex = page.noIndex ?? false;
      view.noRobotsIndex = page.noRobotsIndex ?? false;
      view.tags = [];
      if (page.document !== undefined) view.documentId = page.document;
      if (ctx.body) Object.assign(view, ctx.body(page));
      return view as RevisionPage;
    }
    case 'group':
      return {
        ...common(page),
        type: 'group',
        kind: 'group',
        slug: page.slug,
        path,
        pages: ctx.shallow ? [] : pagesView(page.pages, ctx),
        ...flags(page),
      } as RevisionPage;
    case 'link': {
      const url = page.href ?? '';
      return {
        ...common(page),
        type: 'link',
        kind: 'link',
        target: { kind: 'url', url },
        href: url,
        hidden: page.hidden ?? false,
      } as RevisionPage;
    }
    case 'computed': {
      // The published RevisionPageComputed: its generated pages come from the source (not stored).
      const view = { ...common(page), type: 'computed', computed: JSON.parse(page.computed ?? '{"type":""}') as { type: string } };
      const generated = ctx.generated?.get(page.id);
      if (!generated || ctx.shallow) return view as RevisionPage;
      return {
        ...view,
        pages: generated.pages.map((g) => generatedPageView(g, ctx, { spec: generated.spec, base: path })),
      } as RevisionPage;
    }
    default:
      return assertNever(page.type, 'page type');
  }
}

export function pagesView(pages: readonly TreePage[], ctx: PageViewContext): RevisionPage[] {
  return pages.map((page) => pageView(page, ctx));
}

/**
 * A page an OpenAPI reference generated, as a RevisionPageDocument: `computedSeed` (what its id
 * is derived from), layout defaults, no `git` (it is no file of the space), no `documentId`.
 * Its source (the published ComputedContentSourceDocument: `props` naming the tag, operation
 * or models) is the extension field `generatedBy`, not `computed`: the published
 * RevisionPageDocument's last `oneOf` has a branch that any object matches, so a page with
 * both `computed` and `computedSeed` matches two branches and no such answer validates.
 */
export function generatedPageView(page: GeneratedPage, ctx: PageViewContext, at: { spec: string; base: string }): RevisionPage {
  const path = at.base === '' ? page.slug : `${at.base}/${page.slug}`;
  const view: Record<string, unknown> = {
    id: page.id,
    title: page.title,
    type: 'document',
    kind: 'sheet',
    urls: { app: ctx.appURL(page.id) },
    slug: page.slug,
    path,
    pages: ctx.shallow ? [] : page.pages.map((child) => generatedPageView(child, ctx, { spec: at.spec, base: path })),
    layout: { ...DEFAULT_PAGE_LAYOUT },
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
    tags: [],
    computedSeed: page.seed,
    generatedBy: { type: 'builtin:openapi', props: page.props, dependencies: { spec: { ref: { kind: 'openapi', spec: at.spec } } } },
  };
  if (ctx.generatedBody) Object.assign(view, ctx.generatedBody(page.markdown));
  return view as RevisionPage;
}

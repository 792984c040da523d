import {
  DEFAULT_PAGE_LAYOUT, type PageCover, type RevisionPage, type TreePage,
} from '../../model/index.js';
import type { JsonDocument, PagePaths } from '../../content/index.js';

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
}

function coverView(cover: PageCover): NonNullable<RevisionPage['cover']> {
  return {
    ...(cover.ref ? { ref: cover.ref } : {}),
    ...(cover.refDark ? { refDark: cover.refDark } : {}),
    yPos: cover.yPos ?? 0,
    ...(cover.height !== undefined ? { height: cover.height } : {}),
  };
}

function common(page: TreePage) {
  return {
    id: page.id,
    title: page.title,
    ...(page.emoji !== undefined && page.emoji !== '' ? { emoji: page.emoji } : {}),
    ...(page.icon !== undefined && page.icon !== '' ? { icon: page.icon } : {}),
    ...(page.createdAt !== undefined ? { createdAt: page.createdAt } : {}),
    ...(page.updatedAt !== undefined ? { updatedAt: page.updatedAt } : {}),
  };
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
      return {
        ...common(page),
        type: 'document',
        kind: 'sheet',
        urls: { app: ctx.appURL(page.id) },
        slug: page.slug,
        path,
        ...(page.linkTitle !== undefined && page.linkTitle !== '' ? { linkTitle: page.linkTitle } : {}),
        ...(page.description !== undefined ? { description: page.description } : {}),
        pages: ctx.shallow ? [] : pagesView(page.pages, ctx),
        ...(ctx.metadata && gitPath !== undefined ? { git: { oid: ctx.gitOid(page), path: gitPath } } : {}),
        layout: { ...DEFAULT_PAGE_LAYOUT, ...page.layout },
        ...(page.cover ? { cover: coverView(page.cover) } : {}),
        ...(page.variables && Object.keys(page.variables).length > 0 ? { variables: page.variables } : {}),
        ...flags(page),
        tags: [],
        ...(page.document !== undefined ? { documentId: page.document } : {}),
        ...ctx.body?.(page),
      };
    }
    case 'group':
      return { ...common(page), type: 'group', kind: 'group', slug: page.slug, path, pages: ctx.shallow ? [] : pagesView(page.pages, ctx), ...flags(page) };
    case 'link': {
      const url = page.href ?? '';
      return { ...common(page), type: 'link', kind: 'link', target: { kind: 'url', url }, href: url, hidden: page.hidden ?? false };
    }
    default:
      return assertNever(page.type);
  }
}

export function pagesView(pages: readonly TreePage[], ctx: PageViewContext): RevisionPage[] {
  return pages.map((page) => pageView(page, ctx));
}

function assertNever(value: never): never {
  throw new Error(`unknown page type ${String(value)}`);
}

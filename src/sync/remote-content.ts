import type { Client, ContentScope } from '../client/index.js';
import { DEFAULT_PAGE_LAYOUT, type PageLayout, type RevisionPage } from '../model/index.js';
import { NEW_FOLDER_SETTINGS, type WorkspaceContent, type WorkspaceFile, type WorkspacePage } from '../workspace/index.js';

export interface RemoteContent {
  /** The revision the content is. */
  revision: string;
  content: WorkspaceContent;
}

/** Only the layout options that differ from the defaults: the rest would clutter front matter. */
function layoutOf(page: RevisionPage): PageLayout | undefined {
  const layout = (page as { layout?: Record<string, unknown> }).layout;
  if (!layout) return undefined;
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(layout)) {
    if ((DEFAULT_PAGE_LAYOUT as Record<string, unknown>)[key] !== value) changed[key] = value;
  }
  return Object.keys(changed).length === 0 ? undefined : (changed as PageLayout);
}

/** A page of the API as the workspace format holds it. */
export function toWorkspacePage(page: RevisionPage): WorkspacePage {
  if (page.type === 'link') {
    return { type: 'link', id: page.id, title: page.title, href: page.href ?? page.target?.url ?? '' };
  }
  const children = (page.pages ?? []).map(toWorkspacePage);
  if (page.type === 'group') return { type: 'group', id: page.id, title: page.title, slug: page.slug ?? '', pages: children };
  const layout = layoutOf(page);
  return {
    type: 'document',
    id: page.id,
    title: page.title,
    slug: page.slug ?? '',
    ...(page.linkTitle ? { linkTitle: page.linkTitle } : {}),
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    ...(page.description ? { description: page.description } : {}),
    ...(page.hidden ? { hidden: true } : {}),
    ...(page.noIndex ? { noIndex: true } : {}),
    ...(page.noRobotsIndex ? { noRobotsIndex: true } : {}),
    ...(layout ? { layout } : {}),
    ...(page.variables && Object.keys(page.variables).length > 0 ? { variables: page.variables } : {}),
    markdown: page.markdown ?? '',
    pages: children,
  };
}

function everyDocumentHasMarkdown(pages: readonly RevisionPage[]): boolean {
  return pages.every((page) => (page.type !== 'document' || typeof page.markdown === 'string') && everyDocumentHasMarkdown(page.pages ?? []));
}

/**
 * Everything of one scope (a space's live content, a change request, a revision) that the
 * folder carries: the page tree with each page's markdown (one request where the server offers
 * markdown in the pages listing), the files with their bytes, and the space variables.
 */
export async function fetchContent(client: Client, scope: ContentScope, onProgress?: (done: number, total: number) => void): Promise<RemoteContent> {
  const revision = await client.content.revision(scope);
  // Our server puts each page's markdown in the revision itself; elsewhere ask the pages listing.
  const pages = everyDocumentHasMarkdown(revision.pages) ? revision.pages : await client.content.pages(scope, { markdown: true });
  const total = revision.files.length;
  let done = 0;
  onProgress?.(done, total);
  const files: WorkspaceFile[] = await Promise.all(
    revision.files.map(async (file) => {
      const bytes = await client.content.download(file);
      done += 1;
      onProgress?.(done, total);
      return { id: file.id, name: file.name, contentType: file.contentType, bytes };
    }),
  );
  return {
    revision: revision.id,
    content: {
      pages: pages.map(toWorkspacePage),
      files,
      variables: revision.variables ?? {},
      reusableContents: [],
      settings: { ...NEW_FOLDER_SETTINGS },
    },
  };
}

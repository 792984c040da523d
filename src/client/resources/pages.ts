import type { RevisionPage } from '../../model/index.js';
import { isApiError } from '../errors.js';
import type { Request } from '../request.js';
import { scopePath, seg, type ContentScope } from './paths.js';

/** What the client learnt about the server it talks to, filled in as answers come. */
export interface Capabilities {
  /**
   * docsync's `format=markdown` on the pages listing: undefined until a listing with a document
   * page has shown whether the bodies came along.
   */
  markdownListing: boolean | undefined;
  /**
   * The extensions the server names in its `x-docsync-extensions` header (`set-variables`,
   * `replace-files`, `delete-file`, ...; the list is `DOCSYNC_EXTENSIONS` in the model), as the
   * latest answer carrying it said. Empty until such an answer came, and always empty against the
   * hosted API, which sends no such header: send an extension only when it is listed here.
   */
  extensions: Set<string>;
}

function documentPages(pages: readonly RevisionPage[], out: RevisionPage[] = []): RevisionPage[] {
  for (const page of pages) {
    if (page.type === 'document') out.push(page);
    if (page.pages) documentPages(page.pages, out);
  }
  return out;
}

function withBodies(pages: readonly RevisionPage[], bodies: ReadonlyMap<string, string>): RevisionPage[] {
  return pages.map((page) => {
    const markdown = bodies.get(page.id);
    const children = page.pages ? { pages: withBodies(page.pages, bodies) } : {};
    return { ...page, ...children, ...(markdown !== undefined ? { markdown } : {}) };
  });
}

/**
 * Reads the page tree of a scope (`GET .../pages`). With `markdown: true` every document page
 * carries its `markdown`: asked of the listing in one request (`format=markdown`), and where the
 * server leaves the bodies out (the published API has no `format` there) or refuses the parameter
 * with a 400, fetched one `GET .../page/{id}?format=markdown` per page through the client's queue.
 */
export function pagesResource(request: Request, capabilities: Capabilities) {
  const list = async (scope: ContentScope, format: 'markdown' | undefined): Promise<RevisionPage[]> => {
    const answer = await request<{ pages: RevisionPage[] }>({ method: 'GET', path: `${scopePath(scope)}/pages`, query: { format } });
    return answer.pages;
  };
  const page = (scope: ContentScope, pageId: string, options: { format?: 'markdown' | 'document' } = {}) =>
    request<RevisionPage>({ method: 'GET', path: `${scopePath(scope)}/page/${seg(pageId)}`, query: { format: options.format } });

  const pages = async (scope: ContentScope, options: { markdown?: boolean } = {}): Promise<RevisionPage[]> => {
    if (!options.markdown) return list(scope, undefined);
    let tree: RevisionPage[];
    if (capabilities.markdownListing === false) {
      tree = await list(scope, undefined);
    } else {
      try {
        tree = await list(scope, 'markdown');
      } catch (error) {
        if (!isApiError(error, 400)) throw error;
        capabilities.markdownListing = false;
        tree = await list(scope, undefined);
      }
    }
    const documents = documentPages(tree);
    const missing = documents.filter((p) => typeof p.markdown !== 'string');
    if (capabilities.markdownListing === undefined && documents.length > 0) capabilities.markdownListing = missing.length === 0;
    if (missing.length === 0) return tree;
    const bodies = new Map<string, string>();
    await Promise.all(
      missing.map(async (p) => {
        const full = await page(scope, p.id, { format: 'markdown' });
        bodies.set(p.id, full.markdown ?? '');
      }),
    );
    return withBodies(tree, bodies);
  };

  return { pages, page };
}

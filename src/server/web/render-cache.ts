import type { Kysely } from 'kysely';
import { DocsyncError, type ContentTree, type TreePage } from '../../model/index.js';
import { renderPage, type RenderOptions, type RenderedPage } from '../../render/index.js';
import type { Database } from '../store/schema.js';
import { loadPageMarkdown } from '../revisions/stored-documents.js';
import { Lru } from './lru.js';
import type { SpaceSite } from './space-site.js';

// A page of a revision renders the same every time (for one URL scheme and one set of claims):
// it is rendered once and kept. Rendering runs on the event loop: the parse pool's worker cannot
// load the renderer when run from the sources (its highlight.js import is a top-level await,
// which tsx does not carry into piscina's worker), so a first render costs the loop its time.
const rendered = new Lru<string, Promise<RenderedPage>>(2000);

/** A page's body as HTML; `key` names the revision and URL scheme of `site`. */
export function renderedPage(db: Kysely<Database>, key: string, tree: ContentTree, site: SpaceSite, page: TreePage, options: RenderOptions): Promise<RenderedPage> {
  const cacheKey = `${key}|${page.id}|${options.mode}|${options.claims === undefined ? '' : JSON.stringify(options.claims)}`;
  let found = rendered.get(cacheKey);
  if (!found) {
    found = (async () => {
      const markdown = (await loadPageMarkdown(db, tree, [page])).markdown(page);
      const target = site.byId.get(page.id);
      if (!target) throw new DocsyncError('not_found', `page ${page.id} not found`);
      return renderPage(site.site, target.site, markdown, options);
    })();
    rendered.set(cacheKey, found);
    found.catch(() => rendered.delete(cacheKey));
  }
  return found;
}

import type { Kysely } from 'kysely';
import { DocsyncError, type ContentTree, type TreePage } from '../../model/index.js';
import type { RenderOptions, RenderedPage } from '../../render/index.js';
import { runParse } from '../parse/pool.js';
import type { Database } from '../store/schema.js';
import { loadPageMarkdown } from '../revisions/stored-documents.js';
import { Lru } from './lru.js';
import type { SpaceSite } from './space-site.js';

// A page of a revision renders the same every time (for one URL scheme and one set of claims):
// it is rendered once and kept. Rendering runs on the parse pool's worker threads within the parse
// budget, so hostile markdown holds no request's event loop: past the budget the page is refused
// with 422 `document_too_complex` (an error page), and the refusal is not kept.
const rendered = new Lru<string, Promise<RenderedPage>>(2000);

/** A page's body as HTML; `key` names the revision and URL scheme of `site`. */
export function renderedPage(
  db: Kysely<Database>,
  key: string,
  tree: ContentTree,
  site: SpaceSite,
  page: TreePage,
  options: RenderOptions,
): Promise<RenderedPage> {
  const cacheKey = `${key}|${page.id}|${options.mode}|${options.claims === undefined ? '' : JSON.stringify(options.claims)}`;
  let found = rendered.get(cacheKey);
  if (!found) {
    found = (async () => {
      const markdown = (await loadPageMarkdown(db, tree, [page])).markdown(page);
      const target = site.byId.get(page.id);
      if (!target) throw new DocsyncError('not_found', `page ${page.id} not found`);
      const task = { kind: 'render' as const, site: site.site, page: target.site, markdown, options };
      return (await runParse(task, 'this page', 'render', "simplify the page's markdown")).rendered;
    })();
    rendered.set(cacheKey, found);
    found.catch(() => rendered.delete(cacheKey));
  }
  return found;
}

import type { Kysely } from 'kysely';
import { DocsyncError, type ContentTree, type TreePage } from '../../model/index.js';
import type { RenderOptions, RenderedPage } from '../../render/index.js';
import { runParse } from '../parse/pool.js';
import type { Database } from '../store/schema.js';
import { loadPageMarkdown } from '../revisions/stored-documents.js';
import { Lru } from './lru.js';
import type { SpaceSite } from './space-site.js';
import { loadSpecFiles, specVersions } from '../openapi/reference.js';
import type { OpenApiFiles } from '../../content/index.js';

// A page of a revision renders the same every time (for one URL scheme and one set of claims):
// it is rendered once and kept. Rendering runs on the parse pool's worker threads within the parse
// budget, so hostile markdown holds no request's event loop: past the budget the page is refused
// with 422 `document_too_complex` (an error page), and the refusal is not kept.
const rendered = new Lru<string, Promise<RenderedPage>>(2000);
/** Pages (render keys without the specs' versions) whose markdown names no spec. */
const noSpecs = new Lru<string, boolean>(20_000);

/**
 * The specs a page's `{% openapi-operation %}`, `{% openapi-webhook %}` and `{% openapi-schemas %}` blocks name (`spec`),
 * and its older `{% openapi %}` and `{% swagger %}` blocks (`src`: a slug or a source URL).
 */
const SPEC_ATTRIBUTE = /\{%\s*(?:openapi-(?:operation|webhook|schemas)\b[^%]*?\bspec|(?:openapi|swagger)\s[^%]*?\bsrc)="([^"]+)"/g;
const NAMES_SPEC = /\{%\s*(?:openapi|swagger)\b/;

/**
 * A page's body as HTML; `key` names the revision and URL scheme of `site`. With `orgId`, the
 * OpenAPI blocks of the page are filled from that organization's specs (their latest versions).
 */
export async function renderedPage(
  db: Kysely<Database>,
  key: string,
  tree: ContentTree,
  site: SpaceSite,
  page: TreePage,
  options: RenderOptions,
  orgId?: string,
): Promise<RenderedPage> {
  const plainKey = `${key}|${page.id}|${options.mode}|${options.claims === undefined ? '' : JSON.stringify(options.claims)}`;
  // Only a page made from specs (OpenAPI blocks, a generated page) renders anew with their versions;
  // whether it is one is a fact of its (immutable) markdown, learnt at its first render.
  const specs = orgId === undefined || noSpecs.get(plainKey) === true ? '' : await specVersions(db, orgId);
  const cacheKey = `${plainKey}|${specs}`;
  let found = rendered.get(cacheKey);
  if (!found) {
    found = (async () => {
      const target = site.byId.get(page.id);
      if (!target) throw new DocsyncError('not_found', `page ${page.id} not found`);
      const markdown = target.generated ?? (await loadPageMarkdown(db, tree, [page])).markdown(page);
      const openapi = new Map<string, OpenApiFiles>();
      if (orgId !== undefined)
        for (const [, slug] of markdown.matchAll(SPEC_ATTRIBUTE)) {
          if (openapi.has(slug!)) continue;
          const files = await loadSpecFiles(db, orgId, slug!);
          if (files) openapi.set(slug!, files);
        }
      if (target.generated === undefined && !NAMES_SPEC.test(markdown)) noSpecs.set(plainKey, true);
      const withSpecs = openapi.size > 0 ? { ...site.site, openapi } : site.site;
      const task = { kind: 'render' as const, site: withSpecs, page: target.site, markdown, options };
      return (await runParse(task, 'this page', 'render', "simplify the page's markdown")).rendered;
    })();
    rendered.set(cacheKey, found);
    found.catch(() => rendered.delete(cacheKey));
  }
  return found;
}

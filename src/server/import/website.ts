import type { ImportedPage } from '../../content/index.js';
import { badRequest } from '../../model/index.js';
import { runParse } from '../parse/pool.js';
import type { FetchBudget } from '../fetch/budget.js';
import { decodeText, fetchForImport, isHtml } from './fetch-source.js';
import { IMPORT_LIMITS } from './limits.js';

export interface CrawledSite {
  pages: ImportedPage[];
  /** Distinct pages found (imported or not). */
  total: number;
}

/** Links to these are files, not pages: not worth a fetch. */
const NOT_A_PAGE = /\.(png|jpe?g|gif|svg|webp|ico|css|js|mjs|json|xml|pdf|zip|gz|tar|mp4|webm|mp3|woff2?|ttf|eot)$/i;

/**
 * Imports a web page and, with `follow`, the pages it links to, breadth first: only links on the
 * same origin under the first page's folder (so importing `/docs/` does not wander into
 * `/blog/`), at most `IMPORT_LIMITS.maxPages` pages and `maxSiteBytes` bytes. The first page must
 * load (else 400); a later page that fails or is not HTML is skipped and counted as not
 * imported. One page per HTML page, at the top level, in the order found.
 */
export async function crawlWebsite(budget: FetchBudget, start: string, follow: boolean, allowPrivate: boolean): Promise<CrawledSite> {
  const first = await fetchForImport(budget, start, IMPORT_LIMITS.maxPageBytes, allowPrivate);
  if (!isHtml(first.contentType))
    throw badRequest(`body.url: ${start} is not an HTML page (content type ${first.contentType ?? 'unknown'})`);
  const scope = new URL('.', first.url);
  const found = new Set<string>([withoutHash(first.url)]);
  const queue: string[] = [];
  const pages: ImportedPage[] = [];
  let bytes = 0;

  const take = async (url: string, html: string) => {
    // HTML is parsed on a worker: a hostile page (deep nesting, pathological markup) holds no request but its own.
    const { result: converted } = await runParse({ kind: 'html', html }, url);
    if (!converted.ok) throw badRequest(`body.url: ${url}: ${converted.message}`);
    const name = new URL(url).pathname
      .split('/')
      .filter(Boolean)
      .at(-1)
      ?.replace(/\.[a-z0-9]+$/i, '');
    const title = converted.title ?? name ?? 'Untitled';
    const page: ImportedPage = { source: url, url, kind: 'document', title, markdown: converted.markdown, pages: [] };
    // `index.html` and `/` name a folder, not the page: its slug comes from its title.
    pages.push(name === undefined || /^index$/i.test(name) ? page : { ...page, slug: name });
    if (!follow) return;
    for (const href of converted.links) {
      const link = inScope(href, url, scope);
      if (link !== undefined && !found.has(link)) {
        found.add(link);
        queue.push(link);
      }
    }
  };

  bytes += first.bytes.length;
  await take(first.url, decodeText(first.bytes));
  while (queue.length > 0 && pages.length < IMPORT_LIMITS.maxPages && bytes < IMPORT_LIMITS.maxSiteBytes) {
    const next = queue.shift()!;
    try {
      const page = await fetchForImport(
        budget,
        next,
        Math.min(IMPORT_LIMITS.maxPageBytes, IMPORT_LIMITS.maxSiteBytes - bytes),
        allowPrivate,
      );
      bytes += page.bytes.length;
      // A redirect may leave the site: such a page is not imported.
      if (isHtml(page.contentType) && inScope(page.url, page.url, scope) !== undefined) await take(page.url, decodeText(page.bytes));
    } catch {
      // One broken link does not fail the import; it is counted in totalResources only.
    }
  }
  return { pages, total: found.size };
}

function withoutHash(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

function inScope(href: string, base: string, scope: URL): string | undefined {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return undefined;
  }
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname) || NOT_A_PAGE.test(url.pathname)) return undefined;
  url.hash = '';
  return url.href;
}

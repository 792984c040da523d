import type { FastifyReply, FastifyRequest } from 'fastify';
import { DocsyncError } from '../../model/index.js';
import type { RenderedPage, SitePage } from '../../render/index.js';
import { runParse } from '../parse/pool.js';
import { cacheOf, contentOf, everySiteSpace, indexable, type Content, type Visit } from './published-visit.js';
import { renderedPage } from './render-cache.js';

/*
 * A published site for readers that are not browsers: each page as markdown (`<page URL>.md`),
 * the whole site as `llms.txt`, and for search engines `sitemap.xml` and `robots.txt`. Each is
 * made from what the HTML pages show the same visitor (the same visit: share key, visitor token,
 * claims), so none shows a page or a branch the pages would not.
 */

// A rendered page is kept by the render cache; its markdown is kept as long as it is.
const markdownOf = new WeakMap<RenderedPage, Promise<string>>();

/**
 * The markdown of a rendered page: its HTML (rendered for the visitor's claims, sanitised, blocks
 * filled in, links as the site's URLs) back to markdown on the parse pool, within its budget.
 */
function renderedMarkdown(rendered: RenderedPage): Promise<string> {
  let found = markdownOf.get(rendered);
  if (!found) {
    found = runParse({ kind: 'html', html: `<main>${rendered.html}</main>` }, 'this page', 'convert to markdown').then(({ result }) => {
      if (!result.ok) throw new DocsyncError('document_too_complex', `this page cannot be converted to markdown: ${result.message}`);
      return result.markdown;
    });
    markdownOf.set(rendered, found);
    found.catch(() => markdownOf.delete(rendered));
  }
  return found;
}

/** A page of `content` as the visitor sees it, rendered and cached (the HTML page's own render). */
export function visitorRender(request: FastifyRequest, visit: Visit, content: Content, pageId: string): Promise<RenderedPage> {
  const entry = content.built.byId.get(pageId);
  if (!entry) throw new DocsyncError('not_found', `page ${pageId} not found`);
  return renderedPage(
    request.server.ctx.db,
    content.key,
    content.tree,
    content.built,
    entry.tree,
    { mode: 'published', claims: visit.claims },
    content.space.org_id,
  );
}

const sendText = (reply: FastifyReply, visit: Visit, type: string, text: string, noIndex: boolean) => {
  void reply.status(200).type(type).header('x-content-type-options', 'nosniff').header('cache-control', cacheOf(visit));
  if (noIndex) void reply.header('x-robots-tag', 'noindex');
  return reply.send(text);
};

/** `<page URL>.md`: the page's title, description and body as markdown. */
export async function sendPageMarkdown(request: FastifyRequest, reply: FastifyReply, visit: Visit, content: Content, page: SitePage) {
  const rendered = await visitorRender(request, visit, content, page.id);
  const body = await renderedMarkdown(rendered);
  const tree = content.built.byId.get(page.id)!.tree;
  const text = `# ${page.title}\n\n${page.description ? `> ${page.description}\n\n` : ''}${body}\n`;
  return sendText(
    reply,
    visit,
    'text/markdown; charset=utf-8',
    text,
    !indexable(visit.site) || tree.noIndex === true || tree.noRobotsIndex === true,
  );
}

/** Document pages in reading order with their depth, hidden ones and their children left out. */
function* readingOrder(pages: readonly SitePage[], depth = 0): Generator<{ page: SitePage; depth: number }> {
  for (const page of pages) {
    if (page.hidden) continue;
    yield { page, depth };
    yield* readingOrder(page.pages, depth + 1);
  }
}

/** One line of markdown: no line breaks, no closing bracket that would end a link text early. */
const inline = (text: string) => text.replace(/\s+/g, ' ').replace(/([[\]\\])/g, '\\$1');

/**
 * `llms.txt` (llmstxt.org): the site's title, then each section and site space the visitor sees
 * with its pages in reading order, each a link to its markdown. Pages marked `noIndex` (not for
 * search and ask features) are left out.
 */
export async function sendLlmsTxt(request: FastifyRequest, reply: FastifyReply, visit: Visit) {
  const lines = [`# ${inline(visit.site.title)}`, ''];
  const placed = everySiteSpace(visit);
  for (const place of placed) {
    const content = await contentOf(request, visit, place);
    const heading = [place.section?.title, placed.filter((p) => p.section === place.section).length > 1 ? place.siteSpace.path : undefined]
      .filter((t): t is string => t !== undefined)
      .join(' / ');
    lines.push(`## ${inline(heading || content.space.title || visit.site.title)}`, '');
    for (const { page, depth } of readingOrder(content.built.site.pages)) {
      const indent = '  '.repeat(depth);
      if (page.kind === 'group') lines.push(`${indent}- ${inline(page.title)}`);
      else if (page.kind === 'link') lines.push(`${indent}- [${inline(page.title)}](${page.url})`);
      else if (content.built.byId.get(page.id)?.tree.noIndex !== true)
        lines.push(
          `${indent}- [${inline(page.title)}](${visit.origin}${page.url}.md)${page.description ? `: ${inline(page.description)}` : ''}`,
        );
    }
    lines.push('');
  }
  return sendText(reply, visit, 'text/plain; charset=utf-8', lines.join('\n'), !indexable(visit.site));
}

const xml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[c]!};`);

/** Pages search engines may index: documents not hidden and not marked `noIndex` or `noRobotsIndex`; none on a site that is not public. */
async function indexedUrls(request: FastifyRequest, visit: Visit): Promise<{ allowed: string[]; refused: string[] }> {
  const allowed: string[] = [];
  const refused: string[] = [];
  if (!indexable(visit.site)) return { allowed, refused };
  for (const place of everySiteSpace(visit)) {
    const content = await contentOf(request, visit, place);
    for (const { page } of readingOrder(content.built.site.pages)) {
      const tree = content.built.byId.get(page.id)?.tree;
      if (page.kind !== 'document' || !tree) continue;
      (tree.noIndex || tree.noRobotsIndex ? refused : allowed).push(page.url);
    }
  }
  return { allowed, refused };
}

/** `sitemap.xml`: every indexable page's absolute URL; empty for a site that is not public. */
export async function sendSitemap(request: FastifyRequest, reply: FastifyReply, visit: Visit) {
  const { allowed } = await indexedUrls(request, visit);
  const urls = allowed.map((url) => `<url><loc>${xml(visit.origin + url)}</loc></url>`).join('\n');
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}${urls ? '\n' : ''}</urlset>\n`;
  return sendText(reply, visit, 'application/xml; charset=utf-8', text, !indexable(visit.site));
}

/**
 * `robots.txt`: a public site is open to robots but for its `noIndex`/`noRobotsIndex` pages, and
 * names its sitemap; any other site (unlisted, share-link, visitor-auth) is closed to them. Paths
 * are absolute: under its hostname, the site's root is `/`.
 */
export async function sendRobots(request: FastifyRequest, reply: FastifyReply, visit: Visit) {
  const lines = ['User-agent: *'];
  if (!indexable(visit.site)) lines.push(`Disallow: ${visit.root}/`);
  else {
    const { refused } = await indexedUrls(request, visit);
    const disallowed = refused.flatMap((url) => [`Disallow: ${url}$`, `Disallow: ${url}.md$`]);
    lines.push(`Allow: ${visit.root}/`, ...disallowed, '', `Sitemap: ${visit.origin}${visit.root}/sitemap.xml`);
  }
  return sendText(reply, visit, 'text/plain; charset=utf-8', `${lines.join('\n')}\n`, !indexable(visit.site));
}

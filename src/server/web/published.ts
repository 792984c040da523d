import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { DocsyncError } from '../../model/index.js';
import { renderDocument, type RenderedPage, type SitePage } from '../../render/index.js';
import type { SiteRow } from '../store/sites.js';
import { preparedQuery } from '../store/prepared-query.js';
import { baseUrl } from '../urls.js';
import { sendWebError, webScope } from './index.js';
import { sendHtml } from './reply.js';
import { sendAsset } from './assets.js';
import { APP_STYLES } from './styles.js';
import { cacheOf, contentOf, indexable, openVisit, placeOf, type Content } from './published-visit.js';
import { sendLlmsTxt, sendPageMarkdown, sendRobots, sendSitemap, visitorRender } from './published-extras.js';
import { searchForm, sendSearch } from './published-search.js';

type SiteRequest = FastifyRequest<{ Querystring: Record<string, string> }>;

// One query, prepared (every page of every site starts with it): a basename names a site before an id does.
const sitesNamed = preparedQuery((db, name: string) =>
  db
    .selectFrom('sites')
    .selectAll()
    .where((eb) => eb.or([eb('basename', '=', name), eb('id', '=', name)])),
);

async function findPublishedSite(request: FastifyRequest, name: string): Promise<SiteRow> {
  const rows = await sitesNamed(request.server.ctx.db, name);
  const site = rows.find((r) => r.basename === name) ?? rows[0];
  if (!site || site.published !== 1) throw new DocsyncError('not_found', `no published site at /sites/${name}`);
  return site;
}

// A rendered page is kept by the render cache for one revision, URL scheme, claims and specs
// (which also fix its site's navigation); its whole document and ETag are kept as long as it is,
// by the markup around it, so serving a page again costs no rendering and no hashing. It is kept
// as UTF-8 bytes: a string answer is encoded again on every write (the largest single cost of a
// cached page in a profile under autocannon).
const answers = new WeakMap<RenderedPage, Map<string, { html: Buffer; etag: string }>>();

function pageAnswer(content: Content, page: SitePage, rendered: RenderedPage, bodyStart: string): { html: Buffer; etag: string } {
  let byChrome = answers.get(rendered);
  if (!byChrome) answers.set(rendered, (byChrome = new Map()));
  let found = byChrome.get(bodyStart);
  if (!found) {
    const html = Buffer.from(renderDocument(content.built.site, page, rendered, { bodyStart }), 'utf8');
    found = { html, etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"` };
    byChrome.set(bodyStart, found);
  }
  return found;
}

/**
 * Answers one path of a published site rooted at `root`: `[~share/<key>/][<section>/][<site space>/]`
 * then a page path (its HTML), `<page path>.md` (its markdown), `.gitbook/assets/<file>`,
 * `~search?q=`; at the site's root also `llms.txt`, `sitemap.xml` and `robots.txt`.
 */
async function serveSite(request: SiteRequest, reply: FastifyReply, site: SiteRow, root: string, origin: string, path: string) {
  let segments: string[];
  try {
    segments = path
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    throw new DocsyncError('not_found', `no page at ${request.url.split('?')[0]}`);
  }
  const opened = await openVisit(request, reply, site, root, origin, segments);
  if (!opened) return reply;
  const { visit, rest } = opened;
  if (rest.length === 1 && rest[0] === 'llms.txt') return sendLlmsTxt(request, reply, visit);
  if (rest.length === 1 && rest[0] === 'sitemap.xml') return sendSitemap(request, reply, visit);
  if (rest.length === 1 && rest[0] === 'robots.txt') return sendRobots(request, reply, visit);

  const place = placeOf(visit, rest);
  const content = await contentOf(request, visit, place);
  const { built, tree } = content;
  const pagePath = place.rest.join('/');
  if (pagePath.startsWith('.gitbook/assets/'))
    return sendAsset(request.server.ctx.db, reply, tree, pagePath.slice('.gitbook/assets/'.length), 'public, max-age=300');
  if (place.rest.length === 1 && place.rest[0] === '~search') return sendSearch(request, reply, visit, place, content);
  if (pagePath.endsWith('.md')) {
    const page = built.byPath.get(pagePath.slice(0, -'.md'.length));
    if (page) return sendPageMarkdown(request, reply, visit, content, page);
  }
  const target = pagePath === '' ? built.first : built.byPath.get(pagePath);
  const entry = target ? built.byId.get(target.id) : undefined;
  if (!entry) throw new DocsyncError('not_found', `no page at ${request.url.split('?')[0]}`);
  const rendered = await visitorRender(request, visit, content, entry.site.id);
  const { html, etag } = pageAnswer(
    content,
    entry.site,
    rendered,
    `<style>${APP_STYLES}</style>${place.sectionNav}${place.spacesNav}${searchForm(place.base)}`,
  );
  void reply.header('etag', etag);
  if (!indexable(site) || entry.tree.noIndex || entry.tree.noRobotsIndex) void reply.header('x-robots-tag', 'noindex');
  const cache = cacheOf(visit);
  if (request.headers['if-none-match'] === etag) return reply.status(304).header('cache-control', cache).send();
  return sendHtml(reply, 200, html, cache);
}

/**
 * Published sites at `urls.published`: `/sites/<basename or id>[/~share/<key>][/<section>][/<site space>][/<page path>]`,
 * for visitors as the site's visibility says, without the app's chrome; sections and site
 * spaces a visitor's claims do not meet are left out, pages render for those claims.
 */
export const publishedSites: FastifyPluginAsync = async (app) => {
  await webScope(app);
  const serve = async (
    request: FastifyRequest<{ Params: { name: string; '*'?: string }; Querystring: Record<string, string> }>,
    reply: FastifyReply,
  ) => {
    const site = await findPublishedSite(request, request.params.name);
    return serveSite(
      request,
      reply,
      site,
      `/sites/${encodeURIComponent(request.params.name)}`,
      baseUrl(request),
      request.params['*'] ?? '',
    );
  };
  app.get<{ Params: { name: string }; Querystring: Record<string, string> }>('/:name', serve);
  app.get<{ Params: { name: string; '*': string }; Querystring: Record<string, string> }>('/:name/*', serve);
};

/** The published site whose `hostname` is the request's host (its port left out), if any. */
export async function siteOfHost(request: FastifyRequest): Promise<SiteRow | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const host = request.hostname.toLowerCase();
  if (host === '') return undefined;
  const site = await request.server.ctx.db.selectFrom('sites').selectAll().where('hostname', '=', host).executeTakeFirst();
  return site && site.published === 1 ? site : undefined;
}

/**
 * A site served by its hostname: the request's whole path is the site's (its root is `/`). Called
 * for paths no route of the server has (the API, `/app` and `/sites` keep theirs on every host);
 * errors are the published pages' error pages.
 */
export async function serveHostSite(request: FastifyRequest, reply: FastifyReply, site: SiteRow): Promise<FastifyReply> {
  const url = new URL(request.url, 'http://x');
  try {
    return await serveSite(request as SiteRequest, reply, site, '', `${request.protocol}://${request.host}`, url.pathname);
  } catch (error) {
    return sendWebError(error as Error, request, reply, false);
  }
}

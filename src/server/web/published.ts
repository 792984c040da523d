import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { evaluateCondition, parseCondition, walkPages } from '../../content/index.js';
import { DocsyncError } from '../../model/index.js';
import { escapeHtml as esc, renderDocument } from '../../render/index.js';
import { findRevision, revisionTree } from '../store/revisions.js';
import { findShareLinkByKey, type SiteRow } from '../store/sites.js';
import { siteParts, type SiteSpaceRow } from '../store/site-structure.js';
import { effectiveDefault, rootItems, sectionsInOrder, siteSpacesIn } from '../sites/structure.js';
import { webScope } from './index.js';
import { renderedPage } from './render-cache.js';
import { sendHtml } from './reply.js';
import { spaceSite } from './space-site.js';
import { sendAsset } from './assets.js';
import { APP_STYLES } from './styles.js';
import { VISITOR_COOKIE, unsignedClaims, verifyVisitorToken } from './visitor.js';

const visible = (condition: string | null | undefined, claims: Record<string, unknown>) => {
  if (!condition) return true;
  try {
    return evaluateCondition(parseCondition(condition), { visitor: { claims } });
  } catch {
    return false;
  }
};

async function findPublishedSite(request: FastifyRequest, name: string): Promise<SiteRow> {
  const { db } = request.server.ctx;
  const site =
    (await db.selectFrom('sites').selectAll().where('basename', '=', name).executeTakeFirst()) ??
    (await db.selectFrom('sites').selectAll().where('id', '=', name).executeTakeFirst());
  if (!site || site.published !== 1) throw new DocsyncError('not_found', `no published site at /sites/${name}`);
  return site;
}

/**
 * Published sites at `urls.published`: `/sites/<basename or id>[/~share/<key>][/<section>][/<site space>][/<page path>]`,
 * for visitors as the site's visibility says, without the app's chrome; sections and site
 * spaces a visitor's claims do not meet are left out, pages render for those claims.
 */
export const publishedSites: FastifyPluginAsync = async (app) => {
  await webScope(app);
  const { db } = app.ctx;

  const serve = async (
    request: FastifyRequest<{ Params: { name: string; '*'?: string }; Querystring: Record<string, string> }>,
    reply: FastifyReply,
  ) => {
    const site = await findPublishedSite(request, request.params.name);
    let rest = (request.params['*'] ?? '')
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
    let root = `/sites/${encodeURIComponent(request.params.name)}`;
    // Share links: the key is a path segment (as urls.published writes it), checked on every visit.
    if (rest[0] === '~share') {
      const link = rest[1] === undefined ? undefined : await findShareLinkByKey(db, site.id, rest[1]);
      if (!link || link.active !== 1) throw new DocsyncError('not_found', 'this share link is unknown or no longer active');
      root += `/~share/${encodeURIComponent(link.key)}`;
      rest = rest.slice(2);
    } else if (site.visibility === 'share-link') {
      throw new DocsyncError('not_found', `no published site at /sites/${request.params.name}`);
    }

    // Visitor claims: a signed token (required by `visitor-auth` sites) and unsigned query claims.
    const query = request.query;
    let signed: Record<string, unknown> | undefined;
    if (typeof query.jwt_token === 'string') {
      signed = await verifyVisitorToken(request, site, query.jwt_token);
      if (!signed) throw new DocsyncError('not_found', 'the visitor token is not valid for this site');
      const exp = typeof signed.exp === 'number' ? signed.exp : 0;
      void reply.setCookie(VISITOR_COOKIE, query.jwt_token, {
        path: root,
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        maxAge: Math.max(0, exp - Math.floor(Date.now() / 1000)),
      });
      const url = new URL(request.url, 'http://x');
      url.searchParams.delete('jwt_token');
      return reply.redirect(url.pathname + url.search, 303);
    }
    const cookie = request.cookies[VISITOR_COOKIE];
    if (cookie) signed = await verifyVisitorToken(request, site, cookie);
    if (site.visibility === 'visitor-auth' && !signed)
      throw new DocsyncError('not_found', 'this site is for authenticated visitors: open it with a visitor token');
    const claims: Record<string, unknown> = site.adaptive_content === 1 || signed ? { ...signed, unsigned: unsignedClaims(query) } : {};

    // The structure as this visitor sees it.
    const parts = await siteParts(db, site.id);
    const sections = sectionsInOrder(parts).filter((s) => visible(s.condition, claims));
    let container: string | null = null;
    let containerUrl = root;
    let sectionNav = '';
    if (sections.length > 0) {
      const def = effectiveDefault(site.default_section_id, sections)!;
      const named = sections.find((s) => s.id !== def.id && s.path === rest[0]);
      const section = named ?? def;
      if (named) rest = rest.slice(1);
      container = section.id;
      const urlOf = (s: typeof section) => (s.id === def.id ? root : `${root}/${encodeURIComponent(s.path)}`);
      containerUrl = urlOf(section);
      const groups = new Map(parts.groups.map((g) => [g.id, g]));
      const items = rootItems(parts).flatMap((item) => {
        if (item.kind === 'section')
          return sections.includes(item.row)
            ? [`<a href="${esc(urlOf(item.row))}"${item.row.id === section.id ? ' aria-current="page"' : ''}>${esc(item.row.title)}</a>`]
            : [];
        const inGroup = sections.filter((s) => s.group_id === item.row.id);
        if (inGroup.length === 0) return [];
        return [
          `<details class="pub-group"><summary>${esc(groups.get(item.row.id)?.title ?? '')}</summary>${inGroup.map((s) => `<a href="${esc(urlOf(s))}"${s.id === section.id ? ' aria-current="page"' : ''}>${esc(s.title)}</a>`).join('')}</details>`,
        ];
      });
      sectionNav = `<nav class="app-tabs pub-sections" aria-label="Sections">${items.join('')}</nav>`;
    }
    const pointer =
      container === null ? site.default_site_space_id : (parts.sections.find((s) => s.id === container)?.default_site_space_id ?? null);
    const candidates = siteSpacesIn(parts, container).filter((s) => visible(s.condition, claims));
    const defSpace = effectiveDefault(pointer, candidates);
    if (!defSpace) throw new DocsyncError('not_found', 'this site has nothing to show');
    const namedSpace = candidates.find((s) => s.id !== defSpace.id && s.path === rest[0]);
    const siteSpace: SiteSpaceRow = namedSpace ?? defSpace;
    if (namedSpace) rest = rest.slice(1);
    const spaceUrl = (s: SiteSpaceRow) => (s.id === defSpace.id ? containerUrl : `${containerUrl}/${encodeURIComponent(s.path)}`);
    const spaces =
      candidates.length > 1
        ? `<nav class="app-tabs pub-variants" aria-label="Variants">${candidates.map((s) => `<a href="${esc(spaceUrl(s))}"${s.id === siteSpace.id ? ' aria-current="page"' : ''}>${esc(s.path)}</a>`).join('')}</nav>`
        : '';

    const space = await db
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', siteSpace.space_id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const revision = space ? await findRevision(db, space.revision_id) : undefined;
    if (!space || !revision) throw new DocsyncError('not_found', 'this part of the site has no content');
    const tree = await revisionTree(db, revision);
    const base = spaceUrl(siteSpace);
    const claimsKey = JSON.stringify(claims);
    const key = `pub|${revision.id}|${base}|${createHash('sha256').update(claimsKey).digest('hex').slice(0, 16)}`;
    const built = await spaceSite(db, key, tree, {
      title: site.title,
      pageUrl: (_page, apiPath) => `${base}/${apiPath.split('/').map(encodeURIComponent).join('/')}`,
      assetBase: `${base}/`,
      skip: (page) => !visible(page.condition, claims),
    });

    const path = rest.join('/');
    if (path.startsWith('.gitbook/assets/'))
      return sendAsset(db, reply, tree, path.slice('.gitbook/assets/'.length), 'public, max-age=300');
    const target = path === '' ? built.first : built.byPath.get(path);
    const entry = target ? built.byId.get(target.id) : undefined;
    if (!entry) throw new DocsyncError('not_found', `no page at ${request.url.split('?')[0]}`);
    const treePage = [...walkPages(tree.pages)].find((p) => p.id === entry.site.id)!;
    const rendered = await renderedPage(db, key, tree, built, treePage, { mode: 'published', claims }, space.org_id);
    const html = renderDocument(built.site, entry.site, rendered, { bodyStart: `<style>${APP_STYLES}</style>${sectionNav}${spaces}` });
    const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
    const shared = site.visibility === 'public' || site.visibility === 'unlisted';
    void reply.header('etag', etag);
    if (site.visibility === 'unlisted' || treePage.noIndex || treePage.noRobotsIndex) void reply.header('x-robots-tag', 'noindex');
    const cache = shared && !signed ? 'public, max-age=60' : 'private, no-cache';
    if (request.headers['if-none-match'] === etag) return reply.status(304).header('cache-control', cache).send();
    return sendHtml(reply, 200, html, cache);
  };

  app.get<{ Params: { name: string }; Querystring: Record<string, string> }>('/:name', serve);
  app.get<{ Params: { name: string; '*': string }; Querystring: Record<string, string> }>('/:name/*', serve);
};

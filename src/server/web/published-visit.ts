import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import { evaluateCondition, parseCondition } from '../../content/index.js';
import { DocsyncError, type ContentTree } from '../../model/index.js';
import { escapeHtml as esc } from '../../render/index.js';
import { loadTree } from '../store/trees.js';
import { preparedQuery } from '../store/prepared-query.js';
import { findShareLinkByKey, type SiteRow } from '../store/sites.js';
import { siteParts, type SectionRow, type SiteParts, type SiteSpaceRow } from '../store/site-structure.js';
import type { SpaceRow } from '../store/spaces.js';
import { effectiveDefault, rootItems, sectionsInOrder, siteSpacesIn } from '../sites/structure.js';
import { spaceSite, type SpaceSite } from './space-site.js';
import { VISITOR_COOKIE, unsignedClaims, verifyVisitorToken } from './visitor.js';

/*
 * What every answer of a published site shares, whatever it sends (a page, its markdown, the
 * site's llms.txt, sitemap.xml, robots.txt, search): the same site lookup, share key, visitor
 * token and claims, and the same sections and site spaces left out, so none of them shows what
 * the HTML pages would not.
 */

const visible = (condition: string | null | undefined, claims: Record<string, unknown>) => {
  if (!condition) return true;
  try {
    return evaluateCondition(parseCondition(condition), { visitor: { claims } });
  } catch {
    return false;
  }
};

/** One visitor's view of a published site. */
export interface Visit {
  site: SiteRow;
  /** The path of the site's root: `/sites/<name>[/~share/<key>]`, or '' when served by its hostname. */
  root: string;
  /** `https://host`: absolute URLs (sitemap, llms.txt) are this + a path. */
  origin: string;
  claims: Record<string, unknown>;
  /** True when a signed visitor token came with the request. */
  signed: boolean;
  parts: SiteParts;
  /** The sections this visitor meets, in order. */
  sections: SectionRow[];
}

/** A path as a link target: the root of a site served by hostname is `/`. */
export const href = (path: string) => (path === '' ? '/' : path);

/** `Cache-Control` of a visit's answers: shared caches only for public and unlisted sites visited without a signed token. */
export const cacheOf = (visit: Visit) =>
  (visit.site.visibility === 'public' || visit.site.visibility === 'unlisted') && !visit.signed
    ? 'public, max-age=60'
    : 'private, no-cache';

/** True when search engines may index the site at all: public sites (unlisted, share-link and visitor-auth sites are not). */
export const indexable = (site: SiteRow) => site.visibility === 'public';

/**
 * Opens a visit of `site` at `root` for the path `segments` after it: the share key (a path
 * segment, as urls.published writes it) and the visitor's token (`?jwt_token=`, then kept in a
 * cookie: the answer is a redirect, and undefined is returned). Anything not allowed is a 404.
 */
export async function openVisit(
  request: FastifyRequest<{ Querystring: Record<string, string> }>,
  reply: FastifyReply,
  site: SiteRow,
  root: string,
  origin: string,
  segments: string[],
): Promise<{ visit: Visit; rest: string[] } | undefined> {
  const { db } = request.server.ctx;
  let rest = segments;
  if (rest[0] === '~share') {
    const link = rest[1] === undefined ? undefined : await findShareLinkByKey(db, site.id, rest[1]);
    if (!link || link.active !== 1) throw new DocsyncError('not_found', 'this share link is unknown or no longer active');
    root += `/~share/${encodeURIComponent(link.key)}`;
    rest = rest.slice(2);
  } else if (site.visibility === 'share-link') {
    throw new DocsyncError('not_found', `no published site at ${href(root)}`);
  }

  // Visitor claims: a signed token (required by `visitor-auth` sites) and unsigned query claims.
  const query = request.query;
  let signed: Record<string, unknown> | undefined;
  if (typeof query.jwt_token === 'string') {
    signed = await verifyVisitorToken(request, site, query.jwt_token);
    if (!signed) throw new DocsyncError('not_found', 'the visitor token is not valid for this site');
    const exp = typeof signed.exp === 'number' ? signed.exp : 0;
    const cookie = fastifyCookie.serialize(VISITOR_COOKIE, query.jwt_token, {
      path: href(root),
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: Math.max(0, exp - Math.floor(Date.now() / 1000)),
    });
    const url = new URL(request.url, 'http://x');
    url.searchParams.delete('jwt_token');
    await reply.header('set-cookie', cookie).redirect(url.pathname + url.search, 303);
    return undefined;
  }
  const cookie = fastifyCookie.parse(request.headers.cookie ?? '')[VISITOR_COOKIE];
  if (cookie) signed = await verifyVisitorToken(request, site, cookie);
  if (site.visibility === 'visitor-auth' && !signed)
    throw new DocsyncError('not_found', 'this site is for authenticated visitors: open it with a visitor token');
  const claims: Record<string, unknown> = site.adaptive_content === 1 || signed ? { ...signed, unsigned: unsignedClaims(query) } : {};
  const parts = await siteParts(db, site.id);
  const sections = sectionsInOrder(parts).filter((s) => visible(s.condition, claims));
  return { visit: { site, root, origin, claims, signed: signed !== undefined, parts, sections }, rest };
}

/** A site space of a visit, where it is served. */
export interface Placed {
  section: SectionRow | undefined;
  siteSpace: SiteSpaceRow;
  /** Its URL path (its pages are below it). */
  base: string;
}

/** Where one path of the site leads: its section and site space, the tabs and selector shown there, and the page path left. */
export interface Place extends Placed {
  sectionNav: string;
  spacesNav: string;
  rest: string[];
}

const sectionUrl = (visit: Visit, section: SectionRow, def: SectionRow) =>
  section.id === def.id ? visit.root : `${visit.root}/${encodeURIComponent(section.path)}`;

function containerSpaces(visit: Visit, section: SectionRow | undefined, containerUrl: string) {
  const pointer = section === undefined ? visit.site.default_site_space_id : section.default_site_space_id;
  const candidates = siteSpacesIn(visit.parts, section?.id ?? null).filter((s) => visible(s.condition, visit.claims));
  const def = effectiveDefault(pointer, candidates);
  const urlOf = (s: SiteSpaceRow) => (s.id === def?.id ? containerUrl : `${containerUrl}/${encodeURIComponent(s.path)}`);
  return { candidates, def, urlOf };
}

/** The section and site space a path names (the defaults when it names none); the tabs and the variant selector. */
export function placeOf(visit: Visit, segments: string[]): Place {
  let rest = segments;
  let section: SectionRow | undefined;
  let sectionNav = '';
  if (visit.sections.length > 0) {
    const def = effectiveDefault(visit.site.default_section_id, visit.sections)!;
    const named = visit.sections.find((s) => s.id !== def.id && s.path === rest[0]);
    section = named ?? def;
    if (named) rest = rest.slice(1);
    const link = (s: SectionRow) =>
      `<a href="${esc(href(sectionUrl(visit, s, def)))}"${s.id === section!.id ? ' aria-current="page"' : ''}>${esc(s.title)}</a>`;
    const groups = new Map(visit.parts.groups.map((g) => [g.id, g]));
    const items = rootItems(visit.parts).flatMap((item) => {
      if (item.kind === 'section') return visit.sections.includes(item.row) ? [link(item.row)] : [];
      const inGroup = visit.sections.filter((s) => s.group_id === item.row.id);
      if (inGroup.length === 0) return [];
      return [
        `<details class="pub-group"><summary>${esc(groups.get(item.row.id)?.title ?? '')}</summary>${inGroup.map(link).join('')}</details>`,
      ];
    });
    sectionNav = `<nav class="app-tabs pub-sections" aria-label="Sections">${items.join('')}</nav>`;
  }
  const containerUrl =
    section === undefined ? visit.root : sectionUrl(visit, section, effectiveDefault(visit.site.default_section_id, visit.sections)!);
  const { candidates, def, urlOf } = containerSpaces(visit, section, containerUrl);
  if (!def) throw new DocsyncError('not_found', 'this site has nothing to show');
  const named = candidates.find((s) => s.id !== def.id && s.path === rest[0]);
  const siteSpace = named ?? def;
  if (named) rest = rest.slice(1);
  const spacesNav =
    candidates.length > 1
      ? `<nav class="app-tabs pub-variants" aria-label="Variants">${candidates.map((s) => `<a href="${esc(href(urlOf(s)))}"${s.id === siteSpace.id ? ' aria-current="page"' : ''}>${esc(s.path)}</a>`).join('')}</nav>`
      : '';
  return { section, siteSpace, base: urlOf(siteSpace), sectionNav, spacesNav, rest };
}

/** Every site space the visitor sees, section by section, with its URL. */
export function everySiteSpace(visit: Visit): Placed[] {
  const containers: (SectionRow | undefined)[] = visit.sections.length > 0 ? visit.sections : [undefined];
  const def = visit.sections.length > 0 ? effectiveDefault(visit.site.default_section_id, visit.sections)! : undefined;
  return containers.flatMap((section) => {
    const containerUrl = section === undefined ? visit.root : sectionUrl(visit, section, def!);
    const { candidates, urlOf } = containerSpaces(visit, section, containerUrl);
    return candidates.map((siteSpace) => ({ section, siteSpace, base: urlOf(siteSpace) }));
  });
}

/** A site space's content as the visitor sees it: the space's head, pages whose condition the visitor does not meet left out. */
export interface Content {
  space: SpaceRow;
  tree: ContentTree;
  built: SpaceSite;
  /** The render cache's key of this revision, URL scheme and claims. */
  key: string;
}

// The space and its head's tree in one query, prepared: every page of a site asks for them.
const spaceWithTree = preparedQuery((db, spaceId: string) =>
  db
    .selectFrom('spaces')
    .innerJoin('revisions', 'revisions.id', 'spaces.revision_id')
    .selectAll('spaces')
    .select('revisions.tree_sha as tree_sha')
    .where('spaces.id', '=', spaceId)
    .where('spaces.deleted_at', 'is', null),
);

export async function contentOf(request: FastifyRequest, visit: Visit, placed: Placed): Promise<Content> {
  const { db } = request.server.ctx;
  const [space] = await spaceWithTree(db, placed.siteSpace.space_id);
  if (!space) throw new DocsyncError('not_found', 'this part of the site has no content');
  const tree = await loadTree(db, space.tree_sha);
  const revision = { id: space.revision_id };
  const claimsKey = createHash('sha256').update(JSON.stringify(visit.claims)).digest('hex').slice(0, 16);
  // The site's title is in its pages' chrome: a new title builds them anew.
  const titleKey = createHash('sha256').update(visit.site.title).digest('hex').slice(0, 8);
  const key = `pub|${visit.site.id}|${titleKey}|${revision.id}|${placed.base}|${claimsKey}`;
  const base = placed.base;
  const built = await spaceSite(db, key, tree, {
    title: visit.site.title,
    pageUrl: (_page, apiPath) => `${base}/${apiPath.split('/').map(encodeURIComponent).join('/')}`,
    assetBase: `${base}/`,
    skip: (page) => !visible(page.condition, visit.claims),
    orgId: space.org_id,
  });
  return { space, tree, built, key };
}

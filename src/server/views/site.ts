import type { Role, ShareLink, Site, SiteSection, SiteSectionGroup, SiteSpace, Space } from '../../model/index.js';
import type { SiteRow, ShareLinkRow } from '../store/sites.js';
import type { GroupRow, SectionRow, SiteSpaceRow } from '../store/site-structure.js';
import { sitePermissions } from '../auth/permissions.js';
import { apiUrl, appUrl } from '../urls.js';

/*
 * Where a site is served on this server (the pages come with the web app): the site at
 * /sites/<basename or id>, a share-link visit under /~share/<key>, the default section and a
 * container's default site space at their parent's URL, the others one path segment below it.
 */

export interface SiteUrls {
  /** Published URL of the site's root. */
  published: string;
  /** App URL of the site. */
  app: string;
}

export function siteUrls(base: string, site: Pick<SiteRow, 'id' | 'basename'>, shareKey?: string): SiteUrls {
  let published = `${base}/sites/${encodeURIComponent(site.basename ?? site.id)}`;
  if (shareKey !== undefined) published += `/~share/${encodeURIComponent(shareKey)}`;
  return { published, app: appUrl(base, `/sites/${site.id}`) };
}

export const childUrl = (parent: string, path: string, isDefault: boolean) =>
  isDefault ? parent : `${parent}/${encodeURIComponent(path)}`;

export function siteView(row: SiteRow, role: Role | null, siteSpaces: number, base: string, shareKey?: string): Site {
  const urls = siteUrls(base, row, shareKey);
  const type = row.type as Site['type'];
  return {
    object: 'site',
    id: row.id,
    type,
    appliedType: type,
    title: row.title,
    ...(row.hostname !== null ? { hostname: row.hostname } : {}),
    ...(row.basename !== null ? { basename: row.basename } : {}),
    ...(row.proxy_origin !== null ? { proxy: { origin: row.proxy_origin, target: urls.published } } : {}),
    visibility: row.visibility as Site['visibility'],
    defaultLevel: 'inherit',
    permissions: sitePermissions(role),
    published: row.published === 1,
    siteSpaces,
    createdAt: row.created_at,
    adaptiveContent: { enabled: row.adaptive_content === 1 },
    agentsContext: row.agents_context as Site['agentsContext'],
    features: [],
    urls: {
      location: apiUrl(base, `/orgs/${row.org_id}/sites/${row.id}`),
      app: urls.app,
      preview: `${urls.app}/preview`,
      published: urls.published,
    },
  };
}

export function siteSpaceView(row: SiteSpaceRow, space: Space, isDefault: boolean, parentUrl: string, site: SiteUrls): SiteSpace {
  return {
    object: 'site-space',
    id: row.id,
    path: row.path,
    ...(row.section_id !== null ? { section: row.section_id } : {}),
    space,
    title: space.title,
    default: isDefault,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    draft: false,
    hidden: false,
    urls: { app: `${site.app}/site-spaces/${row.id}`, published: childUrl(parentUrl, row.path, isDefault) },
  };
}

export function sectionView(row: SectionRow, isDefault: boolean, siteSpaces: SiteSpace[], site: SiteUrls): SiteSection {
  return {
    object: 'site-section',
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    default: isDefault,
    draft: false,
    path: row.path,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    ...(row.group_id !== null ? { sectionGroup: row.group_id } : {}),
    ...(row.icon !== null ? { icon: row.icon } : {}),
    siteSpaces,
    urls: { app: `${site.app}/sections/${row.id}`, published: childUrl(site.published, row.path, isDefault) },
  };
}

export function groupView(row: GroupRow, sections: SiteSection[]): SiteSectionGroup {
  return {
    object: 'site-section-group',
    id: row.id,
    title: row.title,
    ...(row.icon !== null ? { icon: row.icon } : {}),
    draft: false,
    sections,
    children: sections,
  };
}

export function shareLinkView(row: ShareLinkRow, site: SiteRow, base: string): ShareLink {
  return {
    object: 'share-link',
    id: row.id,
    createdAt: row.created_at,
    name: row.name,
    active: row.active === 1,
    urls: { published: siteUrls(base, site, row.key).published },
  };
}

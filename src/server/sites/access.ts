import type { Kysely } from 'kysely';
import { DocsyncError, isRole, type Action, type Role } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import { findSite, type SiteRow } from '../store/sites.js';

/**
 * The caller's role on a site is its organization role: an organization admin manages sites,
 * `create` manages their structure, any member reads them (docs/api.md, "Roles"). Guests and
 * non-members see no site.
 */
export async function siteRole(db: Kysely<Database>, orgId: string, userId: string, action: Action): Promise<Role> {
  const member = await memberRole(db, orgId, userId);
  if (!member || !isRole(member.role)) throw new DocsyncError('not_found', `organization ${orgId} not found`);
  requireOrgRole(member, action, orgId);
  return member.role;
}

/** The site (404 unless it belongs to `orgId`) and the caller's role, after checking `action`. */
export async function loadSite(db: Kysely<Database>, orgId: string, siteId: string, userId: string, action: Action): Promise<{ site: SiteRow; role: Role }> {
  const role = await siteRole(db, orgId, userId, 'site.view');
  const site = await findSite(db, siteId);
  // A missing site is a 404 even for callers who could not change it: existence first, then rights.
  if (!site || site.org_id !== orgId) throw new DocsyncError('not_found', `site ${siteId} not found in organization ${orgId}`);
  const member = await memberRole(db, orgId, userId);
  requireOrgRole(member, action, orgId);
  return { site, role };
}

import type { Kysely } from 'kysely';
import { DocsyncError, REQUIRED_ROLE, isRole, roleAtLeast, type Action, type Role } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { memberRole } from '../auth/access.js';
import { effectiveRole } from '../auth/effective-role.js';
import { findSite, type SiteRow } from '../store/sites.js';

/**
 * The caller's role on a site, by the one role rule (effectiveRole). Sites have no default
 * levels or given roles of their own yet, so it is the organization role: an admin manages
 * sites, `create` manages their structure, any member reads them (docs/api.md, "Roles").
 * Guests and non-members see no site (404); too low a role is a 403.
 */
export async function siteRole(db: Kysely<Database>, orgId: string, userId: string, action: Action): Promise<Role> {
  const member = await memberRole(db, orgId, userId);
  const role = effectiveRole({ member: member ? { role: isRole(member.role) ? member.role : null } : undefined, levels: [], grants: [] });
  if (role === null) throw new DocsyncError('not_found', `organization ${orgId} not found`);
  const needed = REQUIRED_ROLE[action];
  if (!roleAtLeast(role, needed))
    throw new DocsyncError('forbidden', `this needs the ${needed} role in organization ${orgId}; you have ${role}`);
  return role;
}

/** The site (404 unless it belongs to `orgId`) and the caller's role, after checking `action`. */
export async function loadSite(
  db: Kysely<Database>,
  orgId: string,
  siteId: string,
  userId: string,
  action: Action,
): Promise<{ site: SiteRow; role: Role }> {
  const role = await siteRole(db, orgId, userId, 'site.view');
  const site = await findSite(db, siteId);
  // A missing site is a 404 even for callers who could not change it: existence first, then rights.
  if (!site || site.org_id !== orgId) throw new DocsyncError('not_found', `site ${siteId} not found in organization ${orgId}`);
  const needed = REQUIRED_ROLE[action];
  if (!roleAtLeast(role, needed))
    throw new DocsyncError('forbidden', `this needs the ${needed} role in organization ${orgId}; you have ${role}`);
  return { site, role };
}

import { isRole, type Organization } from '../../model/index.js';
import type { MemberRow, OrganizationRow } from '../store/organizations.js';
import { organizationPermissions } from '../auth/permissions.js';
import { apiUrl, appUrl } from '../urls.js';

export function organizationView(row: OrganizationRow, member: Pick<MemberRow, 'role'> | undefined, base: string): Organization {
  const role = member && isRole(member.role) ? member.role : null;
  const defaultRole = row.default_role === null ? null : isRole(row.default_role) ? row.default_role : null;
  return {
    object: 'organization',
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    emailDomains: JSON.parse(row.email_domains) as string[],
    ...(row.hostname !== null ? { hostname: row.hostname } : {}),
    type: row.type as Organization['type'],
    ...(row.use_case !== null ? { useCase: row.use_case as NonNullable<Organization['useCase']> } : {}),
    ...(row.community_type !== null ? { communityType: row.community_type as NonNullable<Organization['communityType']> } : {}),
    defaultRole,
    ...(row.default_content !== null
      ? { defaultContent: JSON.parse(row.default_content) as NonNullable<Organization['defaultContent']> }
      : {}),
    sso: row.sso === 1,
    ai: row.ai === 1,
    inviteLinks: row.invite_links === 1,
    plan: row.plan as Organization['plan'],
    mergeRules: { type: 'none' },
    urls: {
      location: apiUrl(base, `/orgs/${row.id}`),
      app: appUrl(base, `/orgs/${row.id}`),
      ...(row.logo !== null ? { logo: row.logo } : {}),
    },
    // Self-hosted: there is no billing, so no trial applies.
    trial: { status: 'notapplicable', count: 0 },
    internal_isOnNewTrial: true,
    permissions: organizationPermissions(member !== undefined, role),
  };
}

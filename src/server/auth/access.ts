import type { Kysely } from 'kysely';
import { DocsyncError, REQUIRED_ROLE, isRole, roleAtLeast, type Action, type Role } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { NO_DEFAULT_LEVEL } from '../store/schema.js';
import { findMember, type MemberRow } from '../store/organizations.js';

/** A space or collection as far as access is concerned. */
export interface ContentNode {
  org_id: string;
  parent_id: string | null;
  default_level: string;
}

/**
 * The caller's role on a piece of content:
 * - not a member of its organization, or a guest: no role (the content is invisible);
 * - an organization admin: admin;
 * - otherwise the content's default level, following `inherit` up through parent collections;
 *   `inherit` all the way up means the member's organization role; `none` (null) means no role.
 */
export async function contentRole(db: Kysely<Database>, userId: string, node: ContentNode): Promise<Role | null> {
  const member = await findMember(db, node.org_id, userId);
  return roleFromLevels(member, await levelChain(db, node));
}

export function roleFromLevels(member: MemberRow | undefined, level: string): Role | null {
  if (!member || member.disabled || !isRole(member.role)) return null;
  if (member.role === 'admin') return 'admin';
  if (level === 'inherit') return member.role;
  if (level === NO_DEFAULT_LEVEL) return null;
  return isRole(level) ? level : null;
}

/** Resolves `inherit` through the parent collections; returns a role, `none` or `inherit`. */
export async function levelChain(db: Kysely<Database>, node: ContentNode): Promise<string> {
  let level = node.default_level;
  let parentId = node.parent_id;
  const seen = new Set<string>();
  while (level === 'inherit' && parentId !== null && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = await db
      .selectFrom('collections')
      .select(['default_level', 'parent_id'])
      .where('id', '=', parentId)
      .executeTakeFirst();
    if (!parent) break;
    level = parent.default_level;
    parentId = parent.parent_id;
  }
  return level;
}

/**
 * Throws 404 when the caller cannot see the resource at all, 403 when it can but its role is
 * too low for `action`.
 */
export function requireRole(role: Role | null, action: Action, what: string): void {
  if (role === null) throw new DocsyncError('not_found', `${what} not found`);
  const needed = REQUIRED_ROLE[action];
  if (!roleAtLeast(role, needed)) {
    throw new DocsyncError('forbidden', `this needs the ${needed} role on the ${what.split(' ')[0]}; you have ${role}`);
  }
}

/** The caller's member role in an organization; undefined when not a member. */
export async function memberRole(db: Kysely<Database>, orgId: string, userId: string): Promise<MemberRow | undefined> {
  const member = await findMember(db, orgId, userId);
  return member && !member.disabled ? member : undefined;
}

export function requireOrgRole(member: MemberRow | undefined, action: Action, orgId: string): void {
  if (!member) throw new DocsyncError('not_found', `organization ${orgId} not found`);
  const needed = REQUIRED_ROLE[action];
  const role = isRole(member.role) ? member.role : null;
  if (!roleAtLeast(role, needed)) {
    throw new DocsyncError('forbidden', `this needs the ${needed} role in organization ${orgId}; you have ${role ?? 'guest'}`);
  }
}

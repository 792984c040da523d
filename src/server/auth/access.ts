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
export function contentRole(db: Kysely<Database>, userId: string, node: ContentNode): Promise<Role | null> {
  return roleResolver(db, userId)(node);
}

export function roleFromLevels(member: MemberRow | undefined, level: string): Role | null {
  if (!member || member.disabled || !isRole(member.role)) return null;
  if (member.role === 'admin') return 'admin';
  if (level === 'inherit') return member.role;
  if (level === NO_DEFAULT_LEVEL) return null;
  return isRole(level) ? level : null;
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

/**
 * `contentRole` for many nodes of one listing: the caller's memberships and the collections'
 * levels are read once per request instead of once per row.
 */
export function roleResolver(db: Kysely<Database>, userId: string): (node: ContentNode) => Promise<Role | null> {
  const members = new Map<string, Promise<MemberRow | undefined>>();
  const collections = new Map<string, Promise<{ default_level: string; parent_id: string | null } | undefined>>();
  const member = (orgId: string) => {
    let found = members.get(orgId);
    if (!found) members.set(orgId, (found = findMember(db, orgId, userId)));
    return found;
  };
  const collection = (id: string) => {
    let found = collections.get(id);
    if (!found) {
      found = db.selectFrom('collections').select(['default_level', 'parent_id']).where('id', '=', id).executeTakeFirst();
      collections.set(id, found);
    }
    return found;
  };
  return async (node) => {
    const m = await member(node.org_id);
    if (!m || m.disabled || !isRole(m.role)) return null;
    if (m.role === 'admin') return 'admin';
    let level = node.default_level;
    let parentId = node.parent_id;
    const seen = new Set<string>();
    while (level === 'inherit' && parentId !== null && !seen.has(parentId)) {
      seen.add(parentId);
      const parent = await collection(parentId);
      if (!parent) break;
      level = parent.default_level;
      parentId = parent.parent_id;
    }
    return roleFromLevels(m, level);
  };
}

/**
 * The caller may create content under `parentId`: a collection of `orgId` where it has the
 * create role, or (null) the organization's root, which needs the create role in the org.
 * `field` names the request field in the 400 for a parent that is not there.
 */
export async function requireCreateUnder(
  db: Kysely<Database>,
  userId: string,
  orgId: string,
  parentId: string | null,
  field: string,
): Promise<void> {
  if (parentId === null) {
    requireOrgRole(await memberRole(db, orgId, userId), 'org.createContent', orgId);
    return;
  }
  const parent = await db.selectFrom('collections').select(['org_id', 'parent_id', 'default_level']).where('id', '=', parentId).executeTakeFirst();
  if (!parent || parent.org_id !== orgId) {
    throw new DocsyncError('invalid_request', `${field}: collection ${parentId} not found in organization ${orgId}`);
  }
  requireRole(await contentRole(db, userId, parent), 'collection.create', `collection ${parentId}`);
}

import type { Kysely } from 'kysely';
import { DocsyncError, REQUIRED_ROLE, isRole, roleAtLeast, type Action, type Role } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { grantsOfUser } from '../store/content-permissions.js';
import { effectiveRole, inheritanceChain } from './effective-role.js';
import { findMember, type MemberRow } from '../store/organizations.js';
import { installationMember, type Membership } from './installation-scope.js';

/** A space or collection as far as access is concerned. */
export interface ContentNode {
  id: string;
  org_id: string;
  parent_id: string | null;
  default_level: string;
}

/**
 * The caller's role on a piece of content, decided by `effectiveRole` (effective-role.ts):
 * null means the content is invisible to the caller.
 */
export function contentRole(db: Kysely<Database>, userId: string, node: ContentNode): Promise<Role | null> {
  return roleResolver(db, userId)(node);
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

/**
 * The caller's member role in an organization; undefined when not a member. An integration
 * installation's token is a guest of the installation's organization (installation-scope.ts).
 */
export async function memberRole(db: Kysely<Database>, orgId: string, userId: string): Promise<Membership | undefined> {
  const member = await findMember(db, orgId, userId);
  if (member) return member.disabled ? undefined : member;
  return installationMember(db, orgId, userId);
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
 * `contentRole` for many nodes of one listing: the caller's membership, grants and the
 * collections above the nodes are read once per request instead of once per row.
 */
export function roleResolver(db: Kysely<Database>, userId: string): (node: ContentNode) => Promise<Role | null> {
  const members = new Map<string, Promise<Membership | undefined>>();
  const grants = new Map<string, Promise<Map<string, Role[]>>>();
  const collections = new Map<string, Promise<ContentNode | undefined>>();
  const cached = <T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> => {
    let found = map.get(key);
    if (!found) map.set(key, (found = load()));
    return found;
  };
  const collection = (id: string) =>
    cached(collections, id, () =>
      db.selectFrom('collections').select(['id', 'org_id', 'parent_id', 'default_level']).where('id', '=', id).executeTakeFirst(),
    );
  return async (node) => {
    const m = await cached(members, node.org_id, () => memberRole(db, node.org_id, userId));
    if (!m) return null;
    const role = isRole(m.role) ? m.role : null;
    if (role === 'admin') return 'admin';
    const given = await cached(grants, node.org_id, () => m.installationGrants?.() ?? grantsOfUser(db, node.org_id, userId));
    const chain = await inheritanceChain(node, collection);
    const levels = chain.map((n) => n.default_level);
    const roles = chain.flatMap((n) => given.get(n.id) ?? []);
    return effectiveRole({ member: { role }, levels, grants: roles });
  };
}

/** Throws 404 for a non-member, 403 for a member who is not an organization admin. */
export function requireOrgAdmin(member: MemberRow | undefined, orgId: string): void {
  requireOrgRole(member, 'org.update', orgId);
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
  const parent = await db
    .selectFrom('collections')
    .select(['id', 'org_id', 'parent_id', 'default_level'])
    .where('id', '=', parentId)
    .executeTakeFirst();
  if (!parent || parent.org_id !== orgId) {
    throw new DocsyncError('invalid_request', `${field}: collection ${parentId} not found in organization ${orgId}`);
  }
  requireRole(await contentRole(db, userId, parent), 'collection.create', `collection ${parentId}`);
}

import { Type, type Static } from '@sinclair/typebox';

/** Highest first: a role includes every right of the roles after it. */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];

export const MemberRole = Type.Union(ROLES.map((r) => Type.Literal(r)));
/** A member's role, or null for a guest. */
export const MemberRoleOrGuest = Type.Union([MemberRole, Type.Null()]);
/** A content default level: a role, null (no access by default) or `inherit` (from the parent). */
export const DefaultLevel = Type.Union([MemberRole, Type.Null(), Type.Literal('inherit')]);
export type DefaultLevel = Static<typeof DefaultLevel>;

const rank = (role: Role): number => ROLES.length - ROLES.indexOf(role);

/** True when `role` grants at least what `needed` grants; a missing role grants nothing. */
export function roleAtLeast(role: Role | null | undefined, needed: Role): boolean {
  return role != null && rank(role) >= rank(needed);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * The role each operation needs on the resource it acts on (docs/api.md, "Roles").
 * Organization actions are checked against the caller's member role; content actions
 * (spaces, collections) against the caller's effective role on that content.
 */
export const REQUIRED_ROLE = {
  'org.view': 'read',
  'org.update': 'admin',
  'org.createContent': 'create',
  'space.view': 'read',
  'space.comment': 'comment',
  'space.edit': 'edit',
  'space.review': 'review',
  'space.merge': 'review',
  'space.update': 'edit',
  'space.updateSettings': 'admin',
  'space.delete': 'admin',
  'space.restore': 'admin',
  'space.duplicate': 'create',
  'space.move': 'admin',
  'space.transfer': 'admin',
  'collection.view': 'read',
  'collection.create': 'create',
  'collection.update': 'admin',
  'collection.delete': 'admin',
  'collection.move': 'admin',
  'collection.transfer': 'admin',
  'changeRequest.view': 'read',
  'changeRequest.create': 'edit',
  'changeRequest.edit': 'edit',
  'changeRequest.update': 'edit',
  'site.view': 'read',
  'site.structure': 'create',
  'site.update': 'admin',
  'org.listMembers': 'read',
  'org.manageMembers': 'admin',
  'org.listTeams': 'read',
  'org.manageTeams': 'admin',
  'org.manageInvites': 'admin',
  'space.listPermissions': 'read',
  'space.managePermissions': 'admin',
  'collection.listPermissions': 'read',
  'collection.managePermissions': 'admin',
  'openapi.view': 'read',
  'openapi.manage': 'create',
  'translation.view': 'read',
  'translation.manage': 'create',
  'sso.view': 'read',
  'sso.manage': 'admin',
  'integration.publish': 'admin',
  'integration.install': 'admin',
} as const satisfies Record<string, Role>;
export type Action = keyof typeof REQUIRED_ROLE;

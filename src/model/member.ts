import { Type, type Static } from '@sinclair/typebox';
import { Id, Timestamp } from './common.js';
import { MemberRole, MemberRoleOrGuest } from './roles.js';
import { User } from './user.js';
import { Space } from './space.js';

/** A member of an organization (object `member`); `id` is the user's id. */
export const Member = Type.Object({
  object: Type.Literal('member'),
  id: Type.String(),
  role: MemberRoleOrGuest,
  user: User,
  disabled: Type.Boolean(),
  joinedAt: Timestamp,
  lastSeenAt: Type.Optional(Timestamp),
  sso: Type.Boolean(),
  /** Spaces the member can see. */
  spaces: Type.Number(),
  /** Teams of the organization the member is in. */
  teams: Type.Number(),
  /** Sites the member can see (published spec). */
  sites: Type.Number(),
});
export type Member = Static<typeof Member>;

export const MEMBER_SORTS = ['joinedAt', 'lastSeenAt', 'name'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];
export const ListOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);

export const MemberListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    order: Type.Optional(ListOrder),
    /** A role, or `guest` for members without one. */
    role: Type.Optional(Type.Union([MemberRole, Type.Literal('guest')])),
    search: Type.Optional(Type.String({ maxLength: 512 })),
    sort: Type.Optional(Type.Union(MEMBER_SORTS.map((s) => Type.Literal(s)))),
  },
  { additionalProperties: false },
);

export const UpdateMember = Type.Object({ role: Type.Optional(MemberRoleOrGuest) }, { additionalProperties: false });

export const MemberSpacesQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    order: Type.Optional(ListOrder),
  },
  { additionalProperties: false },
);

/** An item of a member's spaces: the space and the role the member has there. */
export const MemberContentPermission = Type.Object({ permission: MemberRole, space: Space });

export const PingResult = Type.Object({ serviceVisitorClaims: Type.Optional(Type.String()) });

export const MemberParams = Type.Object({ organizationId: Id, userId: Id });

/** An invite link to an organization (object `invite`). */
export const InviteLink = Type.Object({
  object: Type.Literal('invite'),
  id: Type.String(),
  role: MemberRoleOrGuest,
  /** True when the caller already is a member with at least this role. */
  redundant: Type.Boolean(),
});
export type InviteLink = Static<typeof InviteLink>;

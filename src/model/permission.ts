import { Type } from '@sinclair/typebox';
import { Id } from './common.js';
import { MemberRole, MemberRoleOrGuest } from './roles.js';
import { User } from './user.js';
import { Team } from './team.js';

/**
 * POST /v1/{spaces|collections}/{id}/permissions: give `role` to users and teams (at least one
 * of the two lists); null takes their roles back.
 */
export const InviteUsersAndTeams = Type.Object(
  {
    role: MemberRoleOrGuest,
    users: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 1000 })),
    teams: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 1000 })),
  },
  { additionalProperties: false },
);

export const UpdateContentPermission = Type.Object({ role: Type.Optional(MemberRoleOrGuest) }, { additionalProperties: false });

export const UserContentPermission = Type.Object({ permission: MemberRole, user: User });
export const TeamContentPermission = Type.Object({ permission: MemberRole, team: Team });

export const PermissionsAggregateQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    role: Type.Optional(MemberRole),
  },
  { additionalProperties: false },
);

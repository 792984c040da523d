import { Type, type Static } from '@sinclair/typebox';
import { Id, Timestamp } from './common.js';
import { Member } from './member.js';

export const TeamTitle = Type.String({ minLength: 1, maxLength: 64 });
export const TEAM_MEMBER_ROLES = ['owner', 'member'] as const;
export type TeamMemberRole = (typeof TEAM_MEMBER_ROLES)[number];
export const TeamMemberRole = Type.Union(TEAM_MEMBER_ROLES.map((r) => Type.Literal(r)));

/** A team of an organization (object `team`, the published spec's OrganizationTeam). */
export const Team = Type.Object({
  object: Type.Literal('team'),
  id: Type.String(),
  title: Type.String(),
  /** Members in the team. */
  members: Type.Integer(),
  /** Spaces the team has a role on, directly or through a collection. */
  spaces: Type.Number(),
  createdAt: Timestamp,
  permissions: Type.Object({ admin: Type.Boolean(), view: Type.Boolean() }),
});
export type Team = Static<typeof Team>;

export const TeamParams = Type.Object({ organizationId: Id, teamId: Id });
export const TeamMemberParams = Type.Object({ organizationId: Id, teamId: Id, userId: Id });

export const TeamListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    owner: Type.Optional(Id),
    title: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

/** A member's teams may be filtered by title too. */
export const MemberTeamsQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    title: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const CreateTeam = Type.Object(
  { title: TeamTitle, members: Type.Optional(Type.Array(Id, { maxItems: 1000 })) },
  { additionalProperties: false },
);
export const UpdateTeam = Type.Object({ title: TeamTitle }, { additionalProperties: false });

export const TeamMembership = Type.Object({ role: TeamMemberRole }, { additionalProperties: false });

/** A user id or an e-mail address. */
const UserRef = Type.String({ minLength: 1, maxLength: 255 });
export const UpdateTeamMembers = Type.Object(
  {
    add: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
    remove: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
    memberships: Type.Optional(Type.Record(Type.String({ pattern: '^[a-zA-Z0-9_-]{1,64}$' }), TeamMembership)),
  },
  { additionalProperties: false },
);
export type UpdateTeamMembers = Static<typeof UpdateTeamMembers>;

export const PutTeamMember = Type.Object({ role: Type.Optional(TeamMemberRole) }, { additionalProperties: false });

/** An item of a team's member list. */
export const TeamMemberItem = Type.Object({
  organization: Member,
  team: Type.Object({ role: TeamMemberRole }),
  permissions: Type.Object({ view: Type.Boolean() }),
});

/** An item of a member's team list. */
export const MemberTeamItem = Type.Object({ team: Team, member: Type.Object({ role: TeamMemberRole }) });

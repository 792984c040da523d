import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  ListOf,
  ListQuery,
  PutTeamMember,
  TeamMemberItem,
  TeamMemberParams,
  TeamParams,
  UpdateTeamMembers,
  badRequest,
  type TeamMemberRole,
  type UpdateTeamMembers as UpdateTeamMembersBody,
} from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { findMember } from '../store/organizations.js';
import { findUserByEmail } from '../store/users.js';
import { changeTeamMembers, listTeamMembers, type TeamMemberChanges } from '../store/team-members.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { baseUrl } from '../urls.js';
import { memberViews } from './member-views.js';
import { teamAccess } from './team-access.js';

/** The user id a bulk-change entry names (a user id or an e-mail address of a member). */
async function memberIdOf(db: Kysely<Database>, orgId: string, ref: string, field: string): Promise<string> {
  if (ref.includes('@')) {
    const user = await findUserByEmail(db, ref);
    if (user && (await findMember(db, orgId, user.id))) return user.id;
    throw badRequest(`${field}: no member of organization ${orgId} has the e-mail address ${ref}`);
  }
  if (!(await findMember(db, orgId, ref))) throw badRequest(`${field}: user ${ref} is not a member of organization ${orgId}`);
  return ref;
}

/**
 * The bulk change as plain additions and removals: a user in both `add` and `remove` is removed;
 * `memberships` sets roles, adding the user when not in the team yet. Every entry is checked
 * before anything changes.
 */
async function planChanges(db: Kysely<Database>, orgId: string, body: UpdateTeamMembersBody): Promise<TeamMemberChanges> {
  const remove = new Set<string>();
  for (const [i, ref] of (body.remove ?? []).entries()) remove.add(await memberIdOf(db, orgId, ref, `body.remove.${i}`));
  const roles = new Map<string, TeamMemberRole | undefined>();
  for (const [i, ref] of (body.add ?? []).entries()) roles.set(await memberIdOf(db, orgId, ref, `body.add.${i}`), undefined);
  for (const [userId, membership] of Object.entries(body.memberships ?? {})) {
    await memberIdOf(db, orgId, userId, `body.memberships.${userId}`);
    roles.set(userId, membership.role);
  }
  const upsert = [...roles].filter(([userId]) => !remove.has(userId)).map(([userId, role]) => ({ userId, role }));
  return { upsert, remove: [...remove] };
}

/** A team's members: listed by whoever may see the team, changed by admins and the team's owners. */
export const teamMemberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();

  app.get(
    '/orgs/:organizationId/teams/:teamId/members',
    { schema: { params: TeamParams, querystring: ListQuery, response: { 200: ListOf(TeamMemberItem) } } },
    async (request) => {
      const { organizationId, teamId } = request.params;
      await teamAccess(db, organizationId, teamId, request.caller.id, 'view');
      const page = await collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listTeamMembers(db, organizationId, teamId, after, n),
        key: (row) => [row.added_at, row.user_id],
        accept: (row) => row,
      });
      const members = await memberViews(db, organizationId, page.items, baseUrl(request));
      return {
        ...page,
        items: page.items.map((row, i) => ({
          organization: members[i]!,
          team: { role: row.team_role as TeamMemberRole },
          permissions: { view: true },
        })),
      };
    },
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members',
    {
      schema: { params: TeamParams, body: UpdateTeamMembers },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      await teamAccess(db, organizationId, teamId, request.caller.id, 'manageMembers');
      await changeTeamMembers(db, teamId, await planChanges(db, organizationId, request.body), now());
      return reply.status(204).send();
    },
  );

  app.put(
    '/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: { params: TeamMemberParams, body: PutTeamMember },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await teamAccess(db, organizationId, teamId, request.caller.id, 'manageMembers');
      if (!(await findMember(db, organizationId, userId))) {
        throw new DocsyncError('not_found', `user ${userId} is not a member of organization ${organizationId}`);
      }
      await changeTeamMembers(db, teamId, { upsert: [{ userId, role: request.body.role }], remove: [] }, now());
      return reply.status(204).send();
    },
  );

  app.delete('/orgs/:organizationId/teams/:teamId/members/:userId', { schema: { params: TeamMemberParams } }, async (request, reply) => {
    const { organizationId, teamId, userId } = request.params;
    await teamAccess(db, organizationId, teamId, request.caller.id, 'manageMembers');
    if (!(await findMember(db, organizationId, userId))) {
      throw new DocsyncError('not_found', `user ${userId} is not a member of organization ${organizationId}`);
    }
    await changeTeamMembers(db, teamId, { upsert: [], remove: [userId] }, now());
    return reply.status(204).send();
  });
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CreateTeam,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  ListOf,
  Team,
  TeamListQuery,
  TeamParams,
  UpdateTeam,
  badRequest,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import { findMember } from '../store/organizations.js';
import { createTeam, deleteTeam, findTeam, listTeams, renameTeam } from '../store/teams.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { apiUrl, baseUrl } from '../urls.js';
import { teamViews } from './team-views.js';
import { teamAccess } from './team-access.js';

const OrgParams = Type.Object({ organizationId: Id });

/** Teams of an organization: members with a role list them; admins create, rename, delete. */
export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;

  app.get(
    '/orgs/:organizationId/teams',
    { schema: { params: OrgParams, querystring: TeamListQuery, response: { 200: ListOf(Team) } } },
    async (request) => {
      const { organizationId } = request.params;
      const caller = await memberRole(db, organizationId, request.caller.id);
      requireOrgRole(caller, 'org.listTeams', organizationId);
      const { owner, title } = request.query;
      let ownedBy: string | undefined;
      if (owner !== undefined) {
        const member = await findMember(db, organizationId, owner);
        if (!member) throw badRequest(`query.owner: user ${owner} is not a member of organization ${organizationId}`);
        // An organization admin manages every team; anyone else the teams they own.
        if (member.role !== 'admin') ownedBy = owner;
      }
      const needle = title?.toLowerCase();
      const page = await collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listTeams(db, organizationId, ownedBy !== undefined ? { ownedBy } : {}, after, n),
        key: (row) => [row.created_at, row.id],
        accept: (row) => (needle === undefined || row.title.toLowerCase().includes(needle) ? row : undefined),
      });
      return { ...page, items: await teamViews(db, organizationId, page.items, caller!) };
    },
  );

  app.put(
    '/orgs/:organizationId/teams',
    { schema: { params: OrgParams, body: CreateTeam, response: { 201: Team } } },
    async (request, reply) => {
      const { organizationId } = request.params;
      const caller = await memberRole(db, organizationId, request.caller.id);
      requireOrgRole(caller, 'org.manageTeams', organizationId);
      const members = request.body.members ?? [];
      for (const [i, id] of members.entries()) {
        if (!(await findMember(db, organizationId, id))) {
          throw badRequest(`body.members.${i}: user ${id} is not a member of organization ${organizationId}`);
        }
      }
      const team = await createTeam(db, { orgId: organizationId, title: request.body.title, members }, clock.now().toISOString());
      void reply.status(201).header('location', apiUrl(baseUrl(request), `/orgs/${organizationId}/teams/${team.id}`));
      const [view] = await teamViews(db, organizationId, [team], caller!);
      return view!;
    },
  );

  app.get('/orgs/:organizationId/teams/:teamId', { schema: { params: TeamParams, response: { 200: Team } } }, async (request) => {
    const { organizationId, teamId } = request.params;
    const { caller, team } = await teamAccess(db, organizationId, teamId, request.caller.id, 'view');
    const [view] = await teamViews(db, organizationId, [team], caller);
    return view!;
  });

  app.patch(
    '/orgs/:organizationId/teams/:teamId',
    { schema: { params: TeamParams, body: UpdateTeam, response: { 200: Team } } },
    async (request) => {
      const { organizationId, teamId } = request.params;
      const { caller } = await teamAccess(db, organizationId, teamId, request.caller.id, 'update');
      await renameTeam(db, teamId, request.body.title);
      const team = await findTeam(db, organizationId, teamId);
      if (!team) throw new DocsyncError('not_found', `team ${teamId} not found in organization ${organizationId}`);
      const [view] = await teamViews(db, organizationId, [team], caller);
      return view!;
    },
  );

  app.delete('/orgs/:organizationId/teams/:teamId', { schema: { params: TeamParams } }, async (request, reply) => {
    const { organizationId, teamId } = request.params;
    await teamAccess(db, organizationId, teamId, request.caller.id, 'update');
    await deleteTeam(db, organizationId, teamId);
    return reply.status(204).send();
  });
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  ListOf,
  MemberContentPermission,
  MemberParams,
  MemberSpacesQuery,
  MemberTeamItem,
  MemberTeamsQuery,
  type TeamMemberRole,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import { spacesOfUser } from '../auth/reach.js';
import { findMember, type MemberRow } from '../store/organizations.js';
import { listTeams, teamRolesOf } from '../store/teams.js';
import { collectPage, pageRequest, type SortKey } from '../util/cursor.js';
import { spaceView } from '../views/space.js';
import { baseUrl } from '../urls.js';
import { teamViews } from './team-views.js';

/** A member's spaces and teams. */
export const memberContentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  /** The caller may look at a member's spaces and teams: its own, or any when it may list members. */
  async function checkAccess(orgId: string, callerId: string, userId: string): Promise<MemberRow> {
    const caller = await memberRole(db, orgId, callerId);
    if (!caller) throw new DocsyncError('not_found', `organization ${orgId} not found`);
    if (callerId !== userId) requireOrgRole(caller, 'org.listMembers', orgId);
    if (!(await findMember(db, orgId, userId)))
      throw new DocsyncError('not_found', `user ${userId} is not a member of organization ${orgId}`);
    return caller;
  }

  app.get(
    '/orgs/:organizationId/members/:userId/spaces',
    { schema: { params: MemberParams, querystring: MemberSpacesQuery, response: { 200: ListOf(MemberContentPermission) } } },
    async (request) => {
      const { organizationId, userId } = request.params;
      await checkAccess(organizationId, request.caller.id, userId);
      const desc = (request.query.order ?? 'desc') === 'desc';
      const reached = await spacesOfUser(db, organizationId, userId);
      const keyOf = (r: (typeof reached)[number]): SortKey => [r.space.created_at, r.space.id];
      // Sorted here, not by the database: the cursor is compared here too, and PostgreSQL's
      // collation may order ids differently from JavaScript.
      reached.sort((x, y) => compareKeys(keyOf(x), keyOf(y)) * (desc ? -1 : 1));
      const after = (a: SortKey, b: SortKey) => (desc ? compareKeys(a, b) < 0 : compareKeys(a, b) > 0);
      const base = baseUrl(request);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: async (cursor, n) => (cursor ? reached.filter((r) => after(keyOf(r), cursor)) : reached).slice(0, n),
        key: keyOf,
        accept: (r) => ({ permission: r.role, space: spaceView(r.space, r.role, base) }),
      });
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/teams',
    { schema: { params: MemberParams, querystring: MemberTeamsQuery, response: { 200: ListOf(MemberTeamItem) } } },
    async (request) => {
      const { organizationId, userId } = request.params;
      const caller = await checkAccess(organizationId, request.caller.id, userId);
      const title = request.query.title?.toLowerCase();
      const page = await collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listTeams(db, organizationId, { memberId: userId }, after, n),
        key: (row) => [row.created_at, row.id],
        accept: (row) => (title === undefined || row.title.toLowerCase().includes(title) ? row : undefined),
      });
      const teams = await teamViews(db, organizationId, page.items, caller);
      const roles = await teamRolesOf(
        db,
        userId,
        page.items.map((t) => t.id),
      );
      return {
        ...page,
        items: teams.map((team) => ({ team, member: { role: roles.get(team.id) ?? ('member' as TeamMemberRole) } })),
      };
    },
  );
};

function compareKeys(a: SortKey, b: SortKey): number {
  if (a[0] !== b[0]) return String(a[0]) < String(b[0]) ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

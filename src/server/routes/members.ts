import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  ListOf,
  Member,
  MemberListQuery,
  MemberParams,
  UpdateMember,
  conflict,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import {
  findMemberWithUser,
  listMembers,
  matchesSearch,
  memberSortValue,
  removeMember,
  setMemberRole,
  setMemberSso,
} from '../store/members.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { baseUrl } from '../urls.js';
import { memberViews } from './member-views.js';

const OrgParams = Type.Object({ organizationId: Id });

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, dialect } = app.ctx;

  async function loadMember(orgId: string, userId: string, base: string): Promise<Member> {
    const row = await findMemberWithUser(db, orgId, userId);
    if (!row) throw new DocsyncError('not_found', `user ${userId} is not a member of organization ${orgId}`);
    const [view] = await memberViews(db, orgId, [row], base);
    return view!;
  }

  app.get(
    '/orgs/:organizationId/members',
    { schema: { params: OrgParams, querystring: MemberListQuery, response: { 200: ListOf(Member) } } },
    async (request) => {
      const { organizationId } = request.params;
      requireOrgRole(await memberRole(db, organizationId, request.caller.id), 'org.listMembers', organizationId);
      const q = request.query;
      const sort = q.sort ?? 'joinedAt';
      const filter = {
        sort,
        order: q.order ?? 'desc',
        ...(q.role !== undefined ? { role: q.role === 'guest' ? null : q.role } : {}),
      } as const;
      const base = baseUrl(request);
      const page = await collectPage({
        request: pageRequest(q, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listMembers(db, organizationId, filter, after, n),
        key: (row) => [memberSortValue(row, sort), row.user_id],
        accept: (row) => (q.search === undefined || matchesSearch(row, q.search) ? row : undefined),
      });
      return { ...page, items: await memberViews(db, organizationId, page.items, base) };
    },
  );

  app.get('/orgs/:organizationId/members/:userId', { schema: { params: MemberParams, response: { 200: Member } } }, async (request) => {
    const { organizationId, userId } = request.params;
    requireOrgRole(await memberRole(db, organizationId, request.caller.id), 'org.listMembers', organizationId);
    return loadMember(organizationId, userId, baseUrl(request));
  });

  app.patch(
    '/orgs/:organizationId/members/:userId',
    {
      schema: { params: MemberParams, body: UpdateMember, response: { 200: Member } },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      requireOrgRole(await memberRole(db, organizationId, request.caller.id), 'org.manageMembers', organizationId);
      const { role } = request.body;
      if (role !== undefined) {
        const result = await setMemberRole(db, dialect, organizationId, userId, role);
        if (result === 'not_found') throw new DocsyncError('not_found', `user ${userId} is not a member of organization ${organizationId}`);
        if (result === 'last_admin') {
          throw conflict(`user ${userId} is the last admin of organization ${organizationId}: make another member admin first`);
        }
      }
      return loadMember(organizationId, userId, baseUrl(request));
    },
  );

  app.delete('/orgs/:organizationId/members/:userId', { schema: { params: MemberParams } }, async (request, reply) => {
    const { organizationId, userId } = request.params;
    requireOrgRole(await memberRole(db, organizationId, request.caller.id), 'org.manageMembers', organizationId);
    const result = await removeMember(db, dialect, organizationId, userId);
    if (result === 'not_found') throw new DocsyncError('not_found', `user ${userId} is not a member of organization ${organizationId}`);
    if (result === 'last_admin') {
      throw conflict(`user ${userId} is the last admin of organization ${organizationId}: make another member admin first`);
    }
    return reply.status(204).send();
  });

  app.post(
    '/orgs/:organizationId/members/:userId/sso',
    { schema: { params: MemberParams, response: { 200: Member } } },
    async (request) => {
      const { organizationId, userId } = request.params;
      requireOrgRole(await memberRole(db, organizationId, request.caller.id), 'org.manageMembers', organizationId);
      const base = baseUrl(request);
      await loadMember(organizationId, userId, base);
      await setMemberSso(db, organizationId, userId);
      return loadMember(organizationId, userId, base);
    },
  );
};

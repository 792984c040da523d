import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  InviteUsersAndTeams,
  ListOf,
  ListQuery,
  PermissionsAggregateQuery,
  TeamContentPermission,
  UpdateContentPermission,
  UserContentPermission,
  badRequest,
  isRole,
  type Action,
  type Role,
} from '../../model/index.js';
import { contentRole, memberRole, requireRole, roleResolver, type ContentNode } from '../auth/access.js';
import { findSpace } from '../store/spaces.js';
import { findCollection } from '../store/collections.js';
import { findMember } from '../store/organizations.js';
import { findTeam } from '../store/teams.js';
import { listMembers } from '../store/members.js';
import { findUserById } from '../store/users.js';
import { listGrants, removeGrant, setGrant, type ContentKind, type PrincipalKind } from '../store/content-permissions.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { userView } from '../views/user.js';
import { baseUrl } from '../urls.js';
import { teamViews } from './team-views.js';

const KINDS = [
  { kind: 'space', plural: 'spaces', param: 'spaceId' },
  { kind: 'collection', plural: 'collections', param: 'collectionId' },
] as const satisfies readonly { kind: ContentKind; plural: string; param: string }[];

/**
 * The published spec's permission operations of spaces and collections: give users and teams a
 * role on the content, list and change those roles, and list everyone's effective role. Reading
 * needs `read` on the content, changing needs `admin` (docs/api.md, "Roles").
 */
export const contentPermissionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();

  for (const { kind, plural, param } of KINDS) {
    // Named as the content's other routes name it, so messages say `path.spaceId`.
    const Params = Type.Object({ [param]: Id });
    const UserParams = Type.Object({ [param]: Id, userId: Id });
    const TeamParams = Type.Object({ [param]: Id, teamId: Id });
    const base = `/${plural}/:${param}/permissions`;
    const contentId = (params: unknown) => (params as Record<string, string>)[param]!;
    const what = (id: string) => `${kind} ${id}`;

    /** The content after checking the caller may `action` on it. */
    async function load(callerId: string, id: string, action: 'list' | 'manage'): Promise<ContentNode> {
      const node = kind === 'space' ? await findSpace(db, id) : await findCollection(db, id);
      if (!node) throw new DocsyncError('not_found', `${what(id)} not found`);
      const needed = `${kind}.${action === 'list' ? 'listPermissions' : 'managePermissions'}` as Action;
      requireRole(await contentRole(db, callerId, node), needed, what(id));
      return node;
    }

    async function requirePrincipal(node: ContentNode, principal: PrincipalKind, id: string, field: string): Promise<void> {
      if (principal === 'user') {
        if (!(await findMember(db, node.org_id, id))) {
          throw new DocsyncError('not_found', `${field}: user ${id} is not a member of organization ${node.org_id}`);
        }
      } else if (!(await findTeam(db, node.org_id, id))) {
        throw new DocsyncError('not_found', `${field}: team ${id} not found in organization ${node.org_id}`);
      }
    }

    async function assign(node: ContentNode, principal: PrincipalKind, id: string, role: Role | null): Promise<boolean> {
      if (role === null) return removeGrant(db, node.id, principal, id);
      await setGrant(
        db,
        { orgId: node.org_id, contentId: node.id, contentKind: kind, principalKind: principal, principalId: id, role },
        now(),
      );
      return true;
    }

    app.post(base, { schema: { params: Params, body: InviteUsersAndTeams } }, async (request, reply) => {
      const node = await load(request.caller.id, contentId(request.params), 'manage');
      const { role, users = [], teams = [] } = request.body;
      if (users.length === 0 && teams.length === 0) throw badRequest('body.users or body.teams must list at least one user or team');
      // Every id is checked before anything changes, so a bad one leaves no half-done invite.
      for (const [i, id] of users.entries()) await requirePrincipal(node, 'user', id, `body.users.${i}`);
      for (const [i, id] of teams.entries()) await requirePrincipal(node, 'team', id, `body.teams.${i}`);
      for (const id of users) await assign(node, 'user', id, role);
      for (const id of teams) await assign(node, 'team', id, role);
      return reply.status(204).send();
    });

    app.get(
      `${base}/users`,
      { schema: { params: Params, querystring: ListQuery, response: { 200: ListOf(UserContentPermission) } } },
      async (request) => {
        const node = await load(request.caller.id, contentId(request.params), 'list');
        const url = baseUrl(request);
        return collectPage({
          request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
          fetch: (after, n) => listGrants(db, node.id, 'user', after, n),
          key: (row) => [row.created_at, row.principal_id],
          accept: async (row) => {
            const user = await findUserById(db, row.principal_id);
            return user && isRole(row.role) ? { permission: row.role, user: userView(user, url) } : undefined;
          },
        });
      },
    );

    app.get(
      `${base}/teams`,
      { schema: { params: Params, querystring: ListQuery, response: { 200: ListOf(TeamContentPermission) } } },
      async (request) => {
        const node = await load(request.caller.id, contentId(request.params), 'list');
        const caller = (await memberRole(db, node.org_id, request.caller.id))!;
        const page = await collectPage({
          request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
          fetch: (after, n) => listGrants(db, node.id, 'team', after, n),
          key: (row) => [row.created_at, row.principal_id],
          accept: async (row) => {
            const team = await findTeam(db, node.org_id, row.principal_id);
            return team && isRole(row.role) ? { team, permission: row.role } : undefined;
          },
        });
        const views = await teamViews(
          db,
          node.org_id,
          page.items.map((i) => i.team),
          caller,
        );
        return { ...page, items: page.items.map((item, i) => ({ permission: item.permission, team: views[i]! })) };
      },
    );

    app.get(
      `${base}/aggregate`,
      { schema: { params: Params, querystring: PermissionsAggregateQuery, response: { 200: ListOf(UserContentPermission) } } },
      async (request) => {
        const node = await load(request.caller.id, contentId(request.params), 'list');
        const url = baseUrl(request);
        const wanted = request.query.role;
        return collectPage({
          request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
          fetch: (after, n) => listMembers(db, node.org_id, { sort: 'joinedAt', order: 'asc' }, after, n),
          key: (row) => [row.joined_at, row.user_id],
          accept: async (row) => {
            const role = await roleResolver(db, row.user_id)(node);
            if (role === null || (wanted !== undefined && role !== wanted)) return undefined;
            const user = {
              id: row.user_id,
              email: row.email,
              display_name: row.display_name,
              photo_url: row.photo_url,
              created_at: row.created_at,
            };
            return { permission: role, user: userView(user, url) };
          },
        });
      },
    );

    for (const principal of ['user', 'team'] as const) {
      const path = `${base}/${principal}s/:${principal}Id`;
      const ParamsOf = principal === 'user' ? UserParams : TeamParams;
      const idOf = (params: Record<string, string>) => params[`${principal}Id`]!;

      app.patch(
        path,
        {
          schema: { params: ParamsOf, body: UpdateContentPermission },
          preValidation: async (request) => {
            request.body ??= {};
          },
        },
        async (request, reply) => {
          const params = request.params as Record<string, string>;
          const node = await load(request.caller.id, contentId(params), 'manage');
          const id = idOf(params);
          await requirePrincipal(node, principal, id, `path.${principal}Id`);
          const { role } = request.body as { role?: Role | null };
          if (role !== undefined) await assign(node, principal, id, role);
          return reply.status(204).send();
        },
      );

      app.delete(path, { schema: { params: ParamsOf } }, async (request, reply) => {
        const params = request.params as Record<string, string>;
        const node = await load(request.caller.id, contentId(params), 'manage');
        // 205 when a role was taken back, 204 when there was none (published spec).
        return reply.status((await removeGrant(db, node.id, principal, idOf(params))) ? 205 : 204).send();
      });
    }
  }
};

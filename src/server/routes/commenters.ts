import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Commenter, DEFAULT_LIST_LIMIT, Id, ListOf, ListQuery, isRole, type Commenter as CommenterView } from '../../model/index.js';
import { listCommenters, type CommenterRow } from '../store/commenters.js';
import { loadPlace } from '../comments/place.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { userView } from '../views/user.js';
import { baseUrl } from '../urls.js';

const PlaceParams = Type.Object({ spaceId: Id, changeRequestId: Type.Optional(Id) });

/**
 * The published OrganizationMember. docsync grants access through organization roles and
 * content default levels only, so no member holds per-member space, team or site grants: the
 * three counts are 0 until such grants exist.
 */
function commenterView(row: CommenterRow, base: string): CommenterView {
  return {
    object: 'member',
    id: row.user.id,
    role: isRole(row.member.role) ? row.member.role : null,
    user: userView(row.user, base),
    disabled: row.member.disabled === 1,
    joinedAt: row.member.joined_at,
    ...(row.member.last_seen_at !== null ? { lastSeenAt: row.member.last_seen_at } : {}),
    sso: row.member.sso === 1,
    spaces: 0,
    teams: 0,
    sites: 0,
  };
}

/** Who commented in a space or a change request (published spec; not in the seeds). */
export const commenterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  for (const path of ['/spaces/:spaceId/commenters', '/spaces/:spaceId/change-requests/:changeRequestId/commenters']) {
    app.get(path, { schema: { params: PlaceParams, querystring: ListQuery, response: { 200: ListOf(Commenter) } } }, async (request) => {
      const place = await loadPlace(db, request.caller, request.params, 'space.view');
      const scope = {
        orgId: place.space.org_id,
        spaceId: place.space.id,
        ...(place.changeRequest !== null ? { changeRequestId: place.changeRequest.id } : {}),
      };
      const page = await collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listCommenters(db, scope, after, n),
        key: (row) => [row.user.id, row.user.id],
        accept: (row) => row,
      });
      const base = baseUrl(request);
      return { ...page, items: page.items.map((row) => commenterView(row, base)) };
    });
  }
};

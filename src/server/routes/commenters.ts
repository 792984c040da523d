import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Commenter, DEFAULT_LIST_LIMIT, Id, ListOf, ListQuery } from '../../model/index.js';
import { listCommenters } from '../store/commenters.js';
import { loadPlace } from '../comments/place.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { memberViews } from './member-views.js';
import { baseUrl } from '../urls.js';

const PlaceParams = Type.Object({ spaceId: Id, changeRequestId: Type.Optional(Id) });

/**
 * Who commented in a space or a change request (published spec; not in the seeds), as the
 * published OrganizationMember: the same object, counts included, as the members listing.
 */
export const commenterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  for (const path of ['/spaces/:spaceId/commenters', '/spaces/:spaceId/change-requests/:changeRequestId/commenters']) {
    app.get(path, { schema: { params: PlaceParams, querystring: ListQuery, response: { 200: ListOf(Commenter) } } }, async (request) => {
      const place = await loadPlace(db, request.caller, request.params, 'space.view');
      const orgId = place.space.org_id;
      const scope = {
        orgId,
        spaceId: place.space.id,
        ...(place.changeRequest !== null ? { changeRequestId: place.changeRequest.id } : {}),
      };
      const page = await collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listCommenters(db, scope, after, n),
        key: (row) => [row.user_id, row.user_id],
        accept: (row) => row,
      });
      return { ...page, items: await memberViews(db, orgId, page.items, baseUrl(request)) };
    });
  }
};

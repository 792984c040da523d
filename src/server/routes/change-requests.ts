import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ChangeRequest,
  ChangeRequestListQuery,
  CreateChangeRequest,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  ListOf,
  MergeResult,
  UpdateChangeRequest,
  UpdateResult,
  type Action,
} from '../../model/index.js';
import { contentRole, requireRole } from '../auth/access.js';
import {
  createChangeRequest,
  findChangeRequest,
  listChangeRequests,
  patchChangeRequest,
  type ChangeRequestRow,
} from '../store/change-requests.js';
import { findSpace, type SpaceRow } from '../store/spaces.js';
import { mergeChangeRequest } from '../revisions/merge-change-request.js';
import { updateChangeRequest } from '../revisions/update-change-request.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { renderChangeRequest, renderChangeRequests } from '../views/change-request-render.js';
import { apiUrl, baseUrl } from '../urls.js';

const SpaceParams = Type.Object({ spaceId: Id });
const ChangeRequestParams = Type.Object({ spaceId: Id, changeRequestId: Id });

export const changeRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();

  /** The space after checking the caller may do `action` on it; 404 when it cannot see it. */
  async function loadSpace(userId: string, spaceId: string, action: Action): Promise<SpaceRow> {
    const space = await findSpace(db, spaceId);
    if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
    requireRole(await contentRole(db, userId, space), action, `space ${spaceId}`);
    return space;
  }

  async function loadChangeRequest(space: SpaceRow, changeRequestId: string): Promise<ChangeRequestRow> {
    const cr = await findChangeRequest(db, space.id, changeRequestId);
    if (!cr) throw new DocsyncError('not_found', `change request ${changeRequestId} not found in space ${space.id}`);
    return cr;
  }

  const renderOne = (row: ChangeRequestRow, base: string) => renderChangeRequest(db, row, base);

  app.get(
    '/spaces/:spaceId/change-requests',
    { schema: { params: SpaceParams, querystring: ChangeRequestListQuery, response: { 200: ListOf(ChangeRequest) } } },
    async (request) => {
      const space = await loadSpace(request.caller.id, request.params.spaceId, 'changeRequest.view');
      const { status = 'open', contributor } = request.query;
      const page = await collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listChangeRequests(db, space.id, { status, ...(contributor !== undefined ? { contributor } : {}) }, after, n),
        key: (row) => [row.updated_at, row.id],
        accept: (row) => row,
      });
      return { ...page, items: await renderChangeRequests(db, page.items, baseUrl(request)) };
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests',
    {
      schema: { params: SpaceParams, body: CreateChangeRequest, response: { 201: ChangeRequest } },
      // The seed makes every field optional; a request without a body is an empty one. A JSON
      // `null` is a body, and not an object: the schema refuses it (400).
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply) => {
      const space = await loadSpace(request.caller.id, request.params.spaceId, 'changeRequest.create');
      const row = await createChangeRequest(
        db,
        {
          spaceId: space.id,
          subject: request.body.subject ?? '',
          createdBy: request.caller.id,
          revision: space.revision_id,
          agentTaskId: request.body.agentTaskId ?? null,
        },
        now(),
      );
      const base = baseUrl(request);
      void reply.status(201).header('location', apiUrl(base, `/spaces/${space.id}/change-requests/${row.id}`));
      return renderOne(row, base);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    { schema: { params: ChangeRequestParams, response: { 200: ChangeRequest } } },
    async (request) => {
      const space = await loadSpace(request.caller.id, request.params.spaceId, 'changeRequest.view');
      return renderOne(await loadChangeRequest(space, request.params.changeRequestId), baseUrl(request));
    },
  );

  app.patch(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    { schema: { params: ChangeRequestParams, body: UpdateChangeRequest, response: { 200: ChangeRequest } } },
    async (request) => {
      const space = await loadSpace(request.caller.id, request.params.spaceId, 'changeRequest.edit');
      const cr = await loadChangeRequest(space, request.params.changeRequestId);
      const refuse = () =>
        new DocsyncError('conflict', `change request #${cr.number} is merged; its subject and status can no longer change`);
      if (cr.status === 'merged') throw refuse();
      const { subject, status } = request.body;
      if (subject === undefined && status === undefined) return renderOne(cr, baseUrl(request));
      const changes = { ...(subject !== undefined ? { subject } : {}), ...(status !== undefined ? { status } : {}) };
      const updated = await patchChangeRequest(db, cr, changes, now());
      if (!updated) throw refuse();
      return renderOne(updated, baseUrl(request));
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/merge',
    { schema: { params: ChangeRequestParams, response: { 200: MergeResult } } },
    async (request) => {
      const space = await loadSpace(request.caller.id, request.params.spaceId, 'space.merge');
      const cr = await loadChangeRequest(space, request.params.changeRequestId);
      const revision = await mergeChangeRequest(db, { spaceId: space.id, changeRequestId: cr.id, userId: request.caller.id }, now);
      return { revision, result: 'merge' as const };
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/update',
    { schema: { params: ChangeRequestParams, response: { 200: UpdateResult } } },
    async (request) => {
      const space = await loadSpace(request.caller.id, request.params.spaceId, 'changeRequest.update');
      const cr = await loadChangeRequest(space, request.params.changeRequestId);
      const revision = await updateChangeRequest(db, { spaceId: space.id, changeRequestId: cr.id, userId: request.caller.id }, now);
      return { revision, result: 'update' as const };
    },
  );
};

import { inTransaction } from '../store/transaction.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CreateSpace,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  ListOf,
  ListQuery,
  MoveContent,
  Space,
  TransferContent,
  UpdateSpace,
  badRequest,
  type Action,
  type Role,
} from '../../model/index.js';
import { contentRole, memberRole, requireOrgRole, requireRole, roleResolver, requireCreateUnder } from '../auth/access.js';
import { findCollection } from '../store/collections.js';
import { findSpace, listSpacesOfOrganization, updateSpace, type SpaceRow } from '../store/spaces.js';
import { addSpace, changeSpace, copySpace, moveSpace, restoreSpace, transferSpace } from '../store/space-tree.js';
import { enqueueJob } from '../jobs/queue.js';
import { PURGE_SPACE, purgeDeadline } from '../jobs/purge-space.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { defaultLevelRow, spaceView } from '../views/space.js';
import { baseUrl, apiUrl } from '../urls.js';

const SpaceParams = Type.Object({ spaceId: Id });
const OrgParams = Type.Object({ organizationId: Id });
const MAX_TITLE = 50;

export const spaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();

  /** The space and the caller's role on it, after checking `action`; 404 for deleted spaces. */
  async function loadSpace(userId: string, spaceId: string, action: Action, includeDeleted = false) {
    const space = await findSpace(db, spaceId, includeDeleted);
    if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
    const role = await contentRole(db, userId, space);
    requireRole(role, action, `space ${spaceId}`);
    return { space, role: role as Role };
  }

  app.get(
    '/orgs/:organizationId/spaces',
    { schema: { params: OrgParams, querystring: ListQuery, response: { 200: ListOf(Space) } } },
    async (request) => {
      const { organizationId } = request.params;
      // Any member may ask, guests included: the list holds only the spaces the caller can see,
      // which for a guest is none.
      if (!(await memberRole(db, organizationId, request.caller.id))) {
        throw new DocsyncError('not_found', `organization ${organizationId} not found`);
      }
      const base = baseUrl(request);
      const resolveRole = roleResolver(db, request.caller.id);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listSpacesOfOrganization(db, organizationId, after, n),
        key: (row) => [row.created_at, row.id],
        accept: async (row) => {
          const role = await resolveRole(row);
          return role === null ? undefined : spaceView(row, role, base);
        },
      });
    },
  );

  app.post(
    '/orgs/:organizationId/spaces',
    {
      schema: { params: OrgParams, body: CreateSpace, response: { 201: Space } },
      // The published spec makes the body optional; a request without one is an empty one. A
      // JSON `null` is a body, and not an object: the schema refuses it (400).
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const body = request.body;
      const member = await memberRole(db, organizationId, request.caller.id);
      requireOrgRole(member, 'org.view', organizationId);
      let role: Role | null;
      if (body.parent !== undefined) {
        const parent = await findCollection(db, body.parent);
        if (!parent || parent.org_id !== organizationId)
          throw badRequest(`body.parent: collection ${body.parent} not found in organization ${organizationId}`);
        role = await contentRole(db, request.caller.id, parent);
        requireRole(role, 'collection.create', `collection ${body.parent}`);
      } else {
        requireOrgRole(member, 'org.createContent', organizationId);
        role = member?.role as Role;
      }
      const visibility = body.visibility ?? (body.parent !== undefined ? 'in-collection' : 'private');
      if (visibility === 'in-collection' && body.parent === undefined) {
        throw badRequest('body.visibility `in-collection` is only valid for a space in a collection (set body.parent)');
      }
      const space = await addSpace(
        db,
        {
          orgId: organizationId,
          parentId: body.parent ?? null,
          title: body.title ?? '',
          emoji: body.emoji ?? '',
          visibility,
          editMode: body.editMode ?? 'live',
          empty: body.empty ?? false,
        },
        now(),
      );
      const base = baseUrl(request);
      const created = await contentRole(db, request.caller.id, space);
      void reply.status(201).header('location', apiUrl(base, `/spaces/${space.id}`));
      return spaceView(space, created ?? role, base);
    },
  );

  app.get(
    '/spaces/:spaceId',
    {
      schema: {
        params: SpaceParams,
        querystring: Type.Object({ shareKey: Type.Optional(Type.String({ maxLength: 256 })) }, { additionalProperties: false }),
        response: { 200: Space },
      },
    },
    async (request) => {
      const { space, role } = await loadSpace(request.caller.id, request.params.spaceId, 'space.view');
      return spaceView(space, role, baseUrl(request));
    },
  );

  app.patch('/spaces/:spaceId', { schema: { params: SpaceParams, body: UpdateSpace, response: { 200: Space } } }, async (request) => {
    const body = request.body;
    const settings = body.editMode !== undefined || body.defaultLevel !== undefined || body.visibility !== undefined;
    const { space } = await loadSpace(request.caller.id, request.params.spaceId, settings ? 'space.updateSettings' : 'space.update');
    const changes: Partial<SpaceRow> = { updated_at: now() };
    if (body.title !== undefined) changes.title = body.title;
    if (body.emoji !== undefined) changes.emoji = body.emoji ?? '';
    if (body.editMode !== undefined) changes.edit_mode = body.editMode;
    if (body.defaultLevel !== undefined) changes.default_level = defaultLevelRow(body.defaultLevel);
    if (body.visibility !== undefined) changes.visibility = body.visibility;
    await changeSpace(db, space, changes);
    return respond(request.caller.id, space.id, baseUrl(request));
  });

  app.delete('/spaces/:spaceId', { schema: { params: SpaceParams } }, async (request, reply) => {
    const { space } = await loadSpace(request.caller.id, request.params.spaceId, 'space.delete');
    const deletedAt = now();
    await inTransaction(db, async (trx) => {
      await updateSpace(trx, space.id, { deleted_at: deletedAt, updated_at: deletedAt });
      await enqueueJob(
        trx,
        { kind: PURGE_SPACE, payload: { spaceId: space.id }, runAt: purgeDeadline(deletedAt).toISOString() },
        deletedAt,
      );
    });
    return reply.status(205).send();
  });

  app.post('/spaces/:spaceId/restore', { schema: { params: SpaceParams, response: { 200: Space } } }, async (request) => {
    const { space } = await loadSpace(request.caller.id, request.params.spaceId, 'space.restore', true);
    await restoreSpace(db, space, clock.now());
    return respond(request.caller.id, space.id, baseUrl(request));
  });

  app.post('/spaces/:spaceId/duplicate', { schema: { params: SpaceParams, response: { 201: Space } } }, async (request, reply) => {
    const { space } = await loadSpace(request.caller.id, request.params.spaceId, 'space.duplicate');
    await requireCreateUnder(db, request.caller.id, space.org_id, space.parent_id, 'parent');
    // The title is cut, not the suffix, so a copy of a long title still reads as a copy.
    const suffix = ' (copy)';
    const title = [...space.title].slice(0, MAX_TITLE - suffix.length).join('') + suffix;
    const copy = await copySpace(db, space, title, now());
    const base = baseUrl(request);
    void reply.status(201).header('location', apiUrl(base, `/spaces/${copy.id}`));
    return respond(request.caller.id, copy.id, base);
  });

  app.post('/spaces/:spaceId/move', { schema: { params: SpaceParams, body: MoveContent, response: { 200: Space } } }, async (request) => {
    const { space } = await loadSpace(request.caller.id, request.params.spaceId, 'space.move');
    const body = request.body;
    await requireCreateUnder(db, request.caller.id, space.org_id, body.parent === undefined ? space.parent_id : body.parent, 'body.parent');
    await moveSpace(db, space, { parentId: body.parent, position: body.position }, now());
    return respond(request.caller.id, space.id, baseUrl(request));
  });

  app.post(
    '/spaces/:spaceId/transfer',
    { schema: { params: SpaceParams, body: TransferContent, response: { 200: Space } } },
    async (request) => {
      const { space } = await loadSpace(request.caller.id, request.params.spaceId, 'space.transfer');
      // Moving content out of an organization is the organization's decision: a content `admin`
      // granted by a default level or a share is not enough.
      if ((await memberRole(db, space.org_id, request.caller.id))?.role !== 'admin') {
        throw new DocsyncError('forbidden', `transferring space ${space.id} needs the admin role in its organization ${space.org_id}`);
      }
      const { organization, collection } = request.body;
      const target = await memberRole(db, organization, request.caller.id);
      if (!target || target.role !== 'admin') {
        throw new DocsyncError('forbidden', `body.organization: you cannot administer organization ${organization}`);
      }
      await requireCreateUnder(db, request.caller.id, organization, collection ?? null, 'body.collection');
      await transferSpace(db, space, { orgId: organization, parentId: collection ?? null }, now());
      return respond(request.caller.id, space.id, baseUrl(request));
    },
  );

  async function respond(userId: string, spaceId: string, base: string) {
    const space = await findSpace(db, spaceId);
    if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
    return spaceView(space, await contentRole(db, userId, space), base);
  }
};

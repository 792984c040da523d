import { inTransaction } from '../store/transaction.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  Collection,
  CreateCollection,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  ListOf,
  ListQuery,
  MoveContent,
  Space,
  UpdateCollection,
  badRequest,
  type Action,
  type Role,
} from '../../model/index.js';
import { contentRole, memberRole, requireOrgRole, requireRole, roleResolver, requireCreateUnder } from '../auth/access.js';
import {
  collectionSubtree,
  createCollection,
  findCollection,
  isInSubtree,
  listCollectionsOfOrganization,
  updateCollection,
  type CollectionRow,
} from '../store/collections.js';
import { listSpacesOfCollection } from '../store/spaces.js';
import { lockContentTree, placeItem, siblings, writeOrder } from '../store/positions.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { collectionView } from '../views/collection.js';
import { defaultLevelRow, spaceView } from '../views/space.js';
import { apiUrl, baseUrl } from '../urls.js';

const CollectionParams = Type.Object({ collectionId: Id });
const OrgParams = Type.Object({ organizationId: Id });

export const collectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();

  async function loadCollection(userId: string, collectionId: string, action: Action) {
    const collection = await findCollection(db, collectionId);
    if (!collection) throw new DocsyncError('not_found', `collection ${collectionId} not found`);
    const role = await contentRole(db, userId, collection);
    requireRole(role, action, `collection ${collectionId}`);
    return { collection, role: role as Role };
  }

  async function respond(userId: string, collectionId: string, base: string) {
    const collection = await findCollection(db, collectionId);
    if (!collection) throw new DocsyncError('not_found', `collection ${collectionId} not found`);
    return collectionView(collection, await contentRole(db, userId, collection), base);
  }

  app.get(
    '/orgs/:organizationId/collections',
    {
      schema: {
        params: OrgParams,
        querystring: Type.Composite([ListQuery, Type.Object({ nested: Type.Optional(Type.Boolean({ default: true })) })], {
          additionalProperties: false,
        }),
        response: { 200: ListOf(Collection) },
      },
    },
    async (request) => {
      const { organizationId } = request.params;
      // Guests may ask too, as for the spaces listing: they see only what their role allows, i.e. nothing.
      if (!(await memberRole(db, organizationId, request.caller.id))) {
        throw new DocsyncError('not_found', `organization ${organizationId} not found`);
      }
      const base = baseUrl(request);
      const topLevelOnly = request.query.nested === false;
      const resolveRole = roleResolver(db, request.caller.id);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listCollectionsOfOrganization(db, organizationId, topLevelOnly, after, n),
        key: (row) => [row.created_at, row.id],
        accept: async (row) => {
          const role = await resolveRole(row);
          return role === null ? undefined : collectionView(row, role, base);
        },
      });
    },
  );

  app.post(
    '/orgs/:organizationId/collections',
    {
      schema: { params: OrgParams, body: CreateCollection, response: { 201: Collection } },
      // Every field is optional and the spec does not require a body, so no body means `{}`.
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const body = request.body;
      const member = await memberRole(db, organizationId, request.caller.id);
      requireOrgRole(member, 'org.view', organizationId);
      const parentId = body.parent ?? null;
      await requireCreateUnder(db, request.caller.id, organizationId, parentId, 'body.parent');
      const collection = await inTransaction(db, async (trx) => {
        await lockContentTree(trx, organizationId);
        // The parent may have been deleted or transferred since it was checked.
        const parent = parentId === null ? null : await findCollection(trx, parentId);
        if (parentId !== null && parent?.org_id !== organizationId) {
          throw badRequest(`body.parent: collection ${parentId} not found in organization ${organizationId}`);
        }
        return createCollection(trx, { orgId: organizationId, parentId, title: body.title ?? '' }, now());
      });
      const base = baseUrl(request);
      void reply.status(201).header('location', apiUrl(base, `/collections/${collection.id}`));
      return respond(request.caller.id, collection.id, base);
    },
  );

  app.get('/collections/:collectionId', { schema: { params: CollectionParams, response: { 200: Collection } } }, async (request) => {
    const { collection, role } = await loadCollection(request.caller.id, request.params.collectionId, 'collection.view');
    return collectionView(collection, role, baseUrl(request));
  });

  app.patch(
    '/collections/:collectionId',
    { schema: { params: CollectionParams, body: UpdateCollection, response: { 200: Collection } } },
    async (request) => {
      const { collection } = await loadCollection(request.caller.id, request.params.collectionId, 'collection.update');
      const body = request.body;
      const changes: Partial<CollectionRow> = { updated_at: now() };
      if (body.title !== undefined) changes.title = body.title;
      if (body.description !== undefined) changes.description = body.description;
      if (body.defaultLevel !== undefined) changes.default_level = defaultLevelRow(body.defaultLevel);
      await updateCollection(db, collection.id, changes);
      return respond(request.caller.id, collection.id, baseUrl(request));
    },
  );

  app.delete('/collections/:collectionId', { schema: { params: CollectionParams } }, async (request, reply) => {
    const { collection } = await loadCollection(request.caller.id, request.params.collectionId, 'collection.delete');
    // Nothing inside is lost: child collections and spaces move up to the deleted collection's
    // parent, after its existing children. A space left at the organization's root cannot be
    // `in-collection`, so it becomes private; children that inherited the collection's level get
    // it as their own (never more visible than before).
    await inTransaction(db, async (trx) => {
      await lockContentTree(trx, collection.org_id);
      const fresh = await findCollection(trx, collection.id);
      if (!fresh) throw new DocsyncError('not_found', `collection ${collection.id} not found`);
      if (fresh.org_id !== collection.org_id) {
        throw new DocsyncError('conflict', `collection ${collection.id} was transferred meanwhile; try again`);
      }
      const parentId = fresh.parent_id;
      const current = await siblings(trx, collection.org_id, parentId);
      const children = await siblings(trx, collection.org_id, collection.id);
      const stamp = now();
      if (parentId === null) {
        // Deleted spaces (still restorable) included, so that a restore never yields `in-collection` at the root.
        await trx
          .updateTable('spaces')
          .set({ visibility: 'private' })
          .where('parent_id', '=', collection.id)
          .where('visibility', '=', 'in-collection')
          .execute();
      }
      // What inherited the deleted collection's own level keeps it, so nothing becomes more
      // visible by inheriting from further up (a hidden collection's spaces stay hidden).
      if (fresh.default_level !== 'inherit') {
        for (const table of ['spaces', 'collections'] as const) {
          await trx
            .updateTable(table)
            .set({ default_level: fresh.default_level })
            .where('parent_id', '=', collection.id)
            .where('default_level', '=', 'inherit')
            .execute();
        }
      }
      for (const child of children) {
        const table = child.type === 'collection' ? 'collections' : 'spaces';
        await trx.updateTable(table).set({ parent_id: parentId, updated_at: stamp }).where('id', '=', child.id).execute();
      }
      // What is left are deleted spaces: they must not point at a collection that no longer exists.
      await trx.updateTable('spaces').set({ parent_id: parentId }).where('parent_id', '=', collection.id).execute();
      const remaining = current.filter((s) => !(s.type === 'collection' && s.id === collection.id));
      await writeOrder(trx, [...remaining, ...children], [...current, ...children]);
      await trx.deleteFrom('collections').where('id', '=', collection.id).execute();
    });
    return reply.status(205).send();
  });

  app.get(
    '/collections/:collectionId/spaces',
    { schema: { params: CollectionParams, querystring: ListQuery, response: { 200: ListOf(Space) } } },
    async (request) => {
      const { collection } = await loadCollection(request.caller.id, request.params.collectionId, 'collection.view');
      const base = baseUrl(request);
      const resolveRole = roleResolver(db, request.caller.id);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT, 'number'),
        fetch: (after, n) => listSpacesOfCollection(db, collection.id, after, n),
        key: (row) => [Number(row.position), row.id],
        accept: async (row) => {
          const role = await resolveRole(row);
          return role === null ? undefined : spaceView(row, role, base);
        },
      });
    },
  );

  app.post(
    '/collections/:collectionId/move',
    { schema: { params: CollectionParams, body: MoveContent, response: { 200: Collection } } },
    async (request) => {
      const { collection } = await loadCollection(request.caller.id, request.params.collectionId, 'collection.move');
      const body = request.body;
      const parentId = body.parent === undefined ? collection.parent_id : body.parent;
      await requireCreateUnder(db, request.caller.id, collection.org_id, parentId, 'body.parent');
      await inTransaction(db, async (trx) => {
        await lockContentTree(trx, collection.org_id);
        // Read again under the lock: a concurrent move may have changed the tree since the checks above.
        const fresh = await findCollection(trx, collection.id);
        if (!fresh) throw new DocsyncError('not_found', `collection ${collection.id} not found`);
        if (parentId !== null && (await isInSubtree(trx, fresh.id, parentId))) {
          throw badRequest(
            `body.parent: collection ${parentId} is ${parentId === fresh.id ? 'the collection itself' : 'inside the collection being moved'}; a collection cannot become its own ancestor`,
          );
        }
        await placeItem(
          trx,
          { orgId: fresh.org_id, parentId, previousParentId: fresh.parent_id },
          { type: 'collection', id: fresh.id },
          body.position,
        );
        await trx.updateTable('collections').set({ parent_id: parentId, updated_at: now() }).where('id', '=', fresh.id).execute();
      });
      return respond(request.caller.id, collection.id, baseUrl(request));
    },
  );

  app.post(
    '/collections/:collectionId/transfer',
    {
      schema: {
        params: CollectionParams,
        body: Type.Object({ organization: Id }, { additionalProperties: false }),
        response: { 200: Collection },
      },
    },
    async (request) => {
      const { collection } = await loadCollection(request.caller.id, request.params.collectionId, 'collection.transfer');
      if ((await memberRole(db, collection.org_id, request.caller.id))?.role !== 'admin') {
        throw new DocsyncError(
          'forbidden',
          `transferring collection ${collection.id} needs the admin role in its organization ${collection.org_id}`,
        );
      }
      const { organization } = request.body;
      const target = await memberRole(db, organization, request.caller.id);
      if (!target || target.role !== 'admin') {
        throw new DocsyncError('forbidden', `body.organization: you cannot administer organization ${organization}`);
      }
      if (organization === collection.org_id) {
        throw new DocsyncError('conflict', `collection ${collection.id} already belongs to organization ${organization}`);
      }
      await inTransaction(db, async (trx) => {
        // Both trees change; locking in a fixed order keeps two opposite transfers from deadlocking.
        for (const orgId of [collection.org_id, organization].sort()) await lockContentTree(trx, orgId);
        const fresh = await findCollection(trx, collection.id);
        if (!fresh || fresh.org_id !== collection.org_id) {
          throw new DocsyncError('conflict', `collection ${collection.id} was moved or deleted meanwhile; try again`);
        }
        const subtree = await collectionSubtree(trx, collection.id);
        const stamp = now();
        const current = await siblings(trx, organization, null);
        for (const id of subtree) {
          await trx.updateTable('collections').set({ org_id: organization, updated_at: stamp }).where('id', '=', id).execute();
          await trx.updateTable('spaces').set({ org_id: organization, updated_at: stamp }).where('parent_id', '=', id).execute();
        }
        await trx.updateTable('collections').set({ parent_id: null }).where('id', '=', collection.id).execute();
        await writeOrder(trx, [...current, { type: 'collection', id: collection.id }], current);
      });
      return respond(request.caller.id, collection.id, baseUrl(request));
    },
  );
};

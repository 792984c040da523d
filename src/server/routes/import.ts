import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DocsyncError, Id } from '../../model/index.js';
import { contentRole, requireRole } from '../auth/access.js';
import { findSpace } from '../store/spaces.js';
import { findChangeRequest } from '../store/change-requests.js';
import { IMPORT_SOURCES, readSource, type ImportSource } from '../import/sources.js';
import { writeImport, type ImportTarget } from '../import/write-import.js';
import { apiUrl, baseUrl } from '../urls.js';

const ImportBody = Type.Object(
  {
    url: Type.String({ format: 'uri', minLength: 1, maxLength: 2048 }),
    source: Type.Union(IMPORT_SOURCES.map((s) => Type.Literal(s))),
  },
  { additionalProperties: false },
);

const ImportResult = Type.Object({
  revision: Type.String(),
  importedResources: Type.Number(),
  totalResources: Type.Number(),
});

/**
 * Content import (seed; published in 0.130). The import runs inside the request: the answer
 * carries the revision it made, so there is nothing to poll, and the fetch limits bound how
 * long it can take.
 */
export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();

  async function runImport(target: ImportTarget, body: { url: string; source: ImportSource }, userId: string) {
    const content = await readSource(body.source, body.url, app.ctx.allowPrivateFetch);
    const written = await writeImport(db, target, content, userId, now);
    return { ...written, totalResources: Math.max(content.total, written.importedResources) };
  }

  async function loadSpace(spaceId: string, userId: string, action: 'space.edit' | 'space.merge') {
    const space = await findSpace(db, spaceId);
    if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
    requireRole(await contentRole(db, userId, space), action, `space ${spaceId}`);
    return space;
  }

  app.post(
    '/spaces/:spaceId/content/import',
    { schema: { params: Type.Object({ spaceId: Id }), body: ImportBody, response: { 201: ImportResult } } },
    async (request, reply) => {
      // Live content moves only as a merge does: the import needs the role a merge needs.
      const space = await loadSpace(request.params.spaceId, request.caller.id, 'space.merge');
      const result = await runImport({ spaceId: space.id }, request.body, request.caller.id);
      void reply.status(201).header('location', apiUrl(baseUrl(request), `/spaces/${space.id}/revisions/${result.revision}`));
      return result;
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/import',
    { schema: { params: Type.Object({ spaceId: Id, changeRequestId: Id }), body: ImportBody, response: { 201: ImportResult } } },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const space = await loadSpace(spaceId, request.caller.id, 'space.edit');
      const cr = await findChangeRequest(db, space.id, changeRequestId);
      if (!cr) throw new DocsyncError('not_found', `change request ${changeRequestId} not found in space ${spaceId}`);
      const result = await runImport({ spaceId: space.id, changeRequestId: cr.id }, request.body, request.caller.id);
      void reply.status(201).header('location', apiUrl(baseUrl(request), `/spaces/${space.id}/revisions/${result.revision}`));
      return result;
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ChangedPagesResponse, DocsyncError, Id } from '../../model/index.js';
import { changedPages } from '../../content/index.js';
import { findSpaceRevision, revisionTree } from '../store/revisions.js';
import { loadReadableSpace } from '../revisions/content-scope.js';

const Params = Type.Object({ spaceId: Id, revisionId: Id });
const Query = Type.Object({ since: Id }, { additionalProperties: false });

/**
 * GET /v1/spaces/{spaceId}/revisions/{revisionId}/changed-pages?since={revisionId} (docsync's
 * extension `changed-pages`, docs/api.md): the pages whose own fields changed since revision
 * `since` of the same space, or `structure: true` when more than that changed, so that a workspace
 * holding `since` reads only the pages an edit on the platform changed (a pull of one page edit
 * then costs one page read, not the revision's 5,000). Any two revisions of the space compare,
 * in either direction; a revision of another space is not found.
 */
export const changedPagesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/changed-pages',
    { schema: { params: Params, querystring: Query, response: { 200: ChangedPagesResponse } } },
    async (request) => {
      const { space } = await loadReadableSpace(db, request.caller, request.params.spaceId);
      const tree = async (id: string) => {
        const revision = await findSpaceRevision(db, space.id, id);
        if (!revision) throw new DocsyncError('not_found', `revision ${id} not found in space ${space.id}`);
        return revisionTree(db, revision);
      };
      const [from, to] = [await tree(request.query.since), await tree(request.params.revisionId)];
      return { since: request.query.since, revision: request.params.revisionId, ...changedPages(from, to) };
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ChangeRequest,
  ContentChangeBatch,
  ContentChangeUpdate,
  ContentWriteQuery,
  Id,
  type ContentChangeOutcome,
} from '../../model/index.js';
import type { PageOutcome } from '../../content/index.js';
import { loadReadableSpace } from '../revisions/content-scope.js';
import { renderFiles, renderReusableContent } from '../revisions/read-content.js';
import { writeContent } from '../revisions/write-content.js';
import { renderChangeRequest } from '../views/change-request-render.js';
import { apiUrl, appUrl, baseUrl } from '../urls.js';

const Params = Type.Object({ spaceId: Id, changeRequestId: Id });

/** `POST /spaces/{spaceId}/change-requests/{changeRequestId}/content`: the published batch write. */
export const contentWriteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      schema: {
        params: Params,
        querystring: ContentWriteQuery,
        body: ContentChangeBatch,
        response: { 200: Type.Union([ChangeRequest, ContentChangeUpdate]) },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { space } = await loadReadableSpace(db, request.caller, spaceId, 'space.edit');
      const written = await writeContent(
        db,
        {
          spaceId,
          changeRequestId,
          userId: request.caller.id,
          changes: request.body.changes,
          allowPrivateFetch: app.ctx.allowPrivateFetch,
        },
        () => clock.now().toISOString(),
      );
      const base = baseUrl(request);
      const changeRequest = await renderChangeRequest(db, written.changeRequest, base);
      if (request.query.compat) return changeRequest;
      const cr = written.changeRequest;
      const location = (pageId: string) => apiUrl(base, `/spaces/${spaceId}/change-requests/${cr.id}/content/page/${pageId}`);
      const pageRef = (id: string) => ({ object: 'page' as const, id, urls: { location: location(id) } });
      const changes = written.result.outcomes.map((o: PageOutcome): ContentChangeOutcome => {
        switch (o.object) {
          case 'created_page':
            return { object: 'created_page', ...(o.ref !== undefined ? { ref: o.ref } : {}), page: pageRef(o.page) };
          case 'updated_page':
            return { object: 'updated_page', page: pageRef(o.page) };
          case 'deleted_page':
            return { object: 'deleted_page', page: o.page };
        }
      });
      const inserted = written.result.insertedFiles;
      const insertedContents = written.result.insertedReusableContents;
      if (inserted.length === 0 && insertedContents.length === 0) return { changeRequest, changes };
      const scope = {
        space,
        spaceId,
        revision: written.revision,
        tree: written.result.tree,
        base,
        appURL: appUrl(base, `/spaces/${spaceId}/change-requests/${cr.number}`),
      };
      return {
        changeRequest,
        changes,
        ...(inserted.length > 0 ? { insertedFiles: await renderFiles(db, scope, inserted, { metadata: true }) } : {}),
        ...(insertedContents.length > 0
          ? {
              insertedReusableContents: await Promise.all(
                insertedContents.map((c) => renderReusableContent(db, scope, c, { metadata: true, markdown: false })),
              ),
            }
          : {}),
      };
    },
  );
};

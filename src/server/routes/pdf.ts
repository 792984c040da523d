import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DocsyncError, Id, badRequest } from '../../model/index.js';
import { contentRole, requireRole } from '../auth/access.js';
import { findSpace } from '../store/spaces.js';
import { findChangeRequest } from '../store/change-requests.js';
import { getBlob } from '../store/blobs.js';
import { changeRequestPdf } from '../pdf/change-request-pdf.js';
import { signBlob, signatureProblem } from '../pdf/signed-url.js';
import { apiUrl, baseUrl } from '../urls.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks a signature in its URL instead of a bearer token (app.ts skips auth). */
    signedUrl?: boolean;
  }
}

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' });

/**
 * GET .../change-requests/{id}/pdf renders the change request's content and answers a link to
 * the PDF that works for an hour without a bearer token (published spec: "The URL will work for
 * 1h"), so it can be handed to a browser or a mail. The link names the stored PDF blob and is
 * signed with HMAC-SHA256 over the blob and the expiry.
 */
export const pdfRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/pdf',
    {
      schema: {
        params: Type.Object({ spaceId: Id, changeRequestId: Id }),
        querystring: Type.Object({ only: Type.Optional(Type.Boolean()), page: Type.Optional(Id) }, { additionalProperties: false }),
        response: { 200: Type.Object({ url: Type.String() }) },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { only, page } = request.query;
      if (only === true && page === undefined) throw badRequest('query.only needs query.page: the page to render alone');
      const space = await findSpace(db, spaceId);
      if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
      requireRole(await contentRole(db, request.caller.id, space), 'changeRequest.view', `space ${spaceId}`);
      const cr = await findChangeRequest(db, space.id, changeRequestId);
      if (!cr) throw new DocsyncError('not_found', `change request ${changeRequestId} not found in space ${spaceId}`);
      const blob = await changeRequestPdf(db, cr, { ...(page !== undefined ? { page } : {}), only: only === true });
      const { expires, signature } = await signBlob(db, blob, clock.now());
      return { url: `${apiUrl(baseUrl(request), `/pdf/${blob}`)}?expires=${expires}&signature=${signature}` };
    },
  );

  app.get(
    '/pdf/:blob',
    {
      config: { signedUrl: true },
      schema: {
        params: Type.Object({ blob: Sha256 }),
        querystring: Type.Object(
          { expires: Type.Integer({ minimum: 0, maximum: 1e11 }), signature: Type.String({ pattern: '^[0-9a-f]{64}$' }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const { blob } = request.params;
      const problem = await signatureProblem(db, blob, request.query.expires, request.query.signature, clock.now());
      if (problem) throw new DocsyncError('forbidden', problem);
      const bytes = await getBlob(db, blob);
      if (!bytes) throw new DocsyncError('not_found', `PDF ${blob} not found`);
      return reply
        .type('application/pdf')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600')
        .send(bytes);
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Id } from '../../model/index.js';
import { getBlob } from '../store/blobs.js';
import { baseUrl } from '../urls.js';
import { loadReadableSpace, revisionScope } from '../revisions/content-scope.js';
import { findFile } from '../revisions/read-content.js';

// A stored content type is sent as a header only when it is printable ASCII.
const SAFE_HEADER = /^[\x20-\x7e]+$/;
const DownloadParams = Type.Object({ spaceId: Id, revisionId: Id, fileId: Id });

/**
 * Raster images a browser shows as images and nothing else. SVG is not one of them (it can hold
 * script), nor is any type a browser renders as a document.
 */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/**
 * RFC 6266 `filename*`, so any file name survives the header. Only a safe image is shown
 * inline; anything else uploaded (HTML, SVG, a PDF, a script) is a download, so a member cannot
 * serve a page that runs in the server's origin.
 */
const disposition = (name: string, type: string) =>
  `${INLINE_TYPES.has(type.toLowerCase()) ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * The bytes of a file (a RevisionFile's `downloadURL`). Addressed by revision, so the URL in an
 * old answer keeps working; read access to the space is required like any content read.
 */
export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/files/:fileId/download',
    { schema: { params: DownloadParams } },
    async (request, reply) => {
      const { spaceId, revisionId, fileId } = request.params;
      const { space } = await loadReadableSpace(db, request.caller, spaceId);
      const scope = await revisionScope(db, space, revisionId, baseUrl(request));
      const file = findFile(scope, fileId);
      const bytes = await getBlob(db, file.blob);
      // The tree names a blob the store must hold; a missing one is a broken store, not bad input.
      if (!bytes) throw new Error(`blob ${file.blob} of file ${file.id} is missing`);
      const type = SAFE_HEADER.test(file.contentType) ? file.contentType : 'application/octet-stream';
      return reply
        .header('content-type', type)
        .header('content-disposition', disposition(file.name, type))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(bytes);
    },
  );
};

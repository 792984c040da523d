import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { DocsyncError, type ContentTree } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { getBlob } from '../store/blobs.js';

const SAFE_HEADER = /^[\x20-\x7e]+$/;
/** Raster images a browser shows as images and nothing else; anything else is a download. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** Sends the file of `tree` named `name` (`.gitbook/assets/<name>`): an image inline, anything else as a download, sandboxed. */
export async function sendAsset(
  db: Kysely<Database>,
  reply: FastifyReply,
  tree: ContentTree,
  name: string,
  cache: string,
): Promise<FastifyReply> {
  const file = tree.files.find((f) => f.name === name);
  if (!file) throw new DocsyncError('not_found', `file ${name} not found`);
  const bytes = await getBlob(db, file.blob);
  if (!bytes) throw new Error(`blob ${file.blob} of file ${file.id} is missing`);
  const type = SAFE_HEADER.test(file.contentType) ? file.contentType : 'application/octet-stream';
  return reply
    .header('content-type', type)
    .header(
      'content-disposition',
      `${INLINE_TYPES.has(type.toLowerCase()) ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    )
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', cache)
    .send(bytes);
}

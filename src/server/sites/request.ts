import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { badRequest } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { findShareLinkByKey, type SiteRow } from '../store/sites.js';
import { siteStructureViews, type SiteStructureViews } from './structure.js';
import { baseUrl } from '../urls.js';

/**
 * `Prefer: return=minimal` (published spec, on the structure writes): answer 204 without a body
 * and say so in `Preference-Applied`. Returns true when the reply was sent.
 */
export function sentMinimal(request: FastifyRequest, reply: FastifyReply): boolean {
  const prefer = request.headers.prefer;
  if (typeof prefer !== 'string' || !/(^|[\s,;])return=minimal($|[\s,;])/.test(prefer)) return false;
  void reply.status(204).header('preference-applied', 'return=minimal').send();
  return true;
}

/** The key of an active share link of the site, or a 400 naming `query.shareKey`. */
export async function resolveShareKey(db: Kysely<Database>, site: SiteRow, shareKey: string | undefined): Promise<string | undefined> {
  if (shareKey === undefined) return undefined;
  const link = await findShareLinkByKey(db, site.id, shareKey);
  if (!link || link.active !== 1) throw badRequest(`query.shareKey: no active share link of site ${site.id} has this key`);
  return link.key;
}

/** The caller's views of the whole site (see siteStructureViews), URLs built for this request. */
export function viewsFor(request: FastifyRequest, site: SiteRow, shareKey?: string): Promise<SiteStructureViews> {
  return siteStructureViews(request.server.ctx.db, site, request.caller.id, baseUrl(request), shareKey);
}

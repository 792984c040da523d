import type { FastifyRequest } from 'fastify';
import { importJWK, jwtVerify, type JWK } from 'jose';
import { VISITOR_CLAIMS_ALG } from '../auth/visitor-claims.js';
import { findOrgKey } from '../store/org-keys.js';
import type { SiteRow } from '../store/sites.js';

/** The cookie keeping a visitor's signed token on one site (its path is the site's). */
export const VISITOR_COOKIE = 'docsync_visitor';

/**
 * The claims of a signed visitor token (JWT, ES256, signed by the organization's key: the
 * `serviceVisitorClaims` of `POST /v1/orgs/{id}/ping`, or any token made with that key), for
 * this organization's audience and unexpired; undefined for anything else.
 */
export async function verifyVisitorToken(
  request: FastifyRequest,
  site: SiteRow,
  token: string,
): Promise<Record<string, unknown> | undefined> {
  const key = await findOrgKey(request.server.ctx.db, site.org_id);
  if (!key) return undefined;
  try {
    const publicKey = await importJWK(JSON.parse(key.public_jwk) as JWK, VISITOR_CLAIMS_ALG);
    const { payload } = await jwtVerify(token, publicKey, {
      algorithms: [VISITOR_CLAIMS_ALG],
      audience: site.org_id,
      currentDate: request.server.ctx.clock.now(),
    });
    return payload as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Unsigned claims from the query (`?visitor.plan=pro`), as GitBook's adaptive content reads them. */
export function unsignedClaims(query: Record<string, unknown>): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    const claim = /^visitor\.([A-Za-z_$][\w$-]{0,63})$/.exec(name)?.[1];
    if (claim === undefined || typeof value !== 'string') continue;
    claims[claim] = value === 'true' ? true : value === 'false' ? false : /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return claims;
}

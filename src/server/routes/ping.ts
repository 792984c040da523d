import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DocsyncError, Id, PingResult, isRole } from '../../model/index.js';
import { memberRole } from '../auth/access.js';
import { organizationJwks, signVisitorClaims } from '../auth/visitor-claims.js';
import { touchMember } from '../store/members.js';
import { findOrganization } from '../store/organizations.js';
import { teamIdsOfUser } from '../store/teams.js';
import { apiUrl, baseUrl } from '../urls.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route publishes public keys: anyone may read them, no bearer token needed (app.ts). */
    publicKey?: boolean;
  }
}

const OrgParams = Type.Object({ organizationId: Id });
const Jwks = Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) });

/**
 * POST /v1/orgs/{id}/ping: the caller was seen now; answers `serviceVisitorClaims`, a JWT about
 * the caller signed with the organization's key. The public key is published as a JWK Set at
 * GET /v1/orgs/{id}/visitor-claims/jwks.json, without authentication, so that anyone handed the
 * token can check it.
 */
export const pingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;

  app.post('/orgs/:organizationId/ping', { schema: { params: OrgParams, response: { 200: PingResult } } }, async (request) => {
    const { organizationId } = request.params;
    const member = await memberRole(db, organizationId, request.caller.id);
    if (!member) throw new DocsyncError('not_found', `organization ${organizationId} not found`);
    const now = clock.now();
    await touchMember(db, organizationId, request.caller.id, now.toISOString());
    const caller = request.caller;
    const serviceVisitorClaims = await signVisitorClaims(db, {
      orgId: organizationId,
      issuer: apiUrl(baseUrl(request), `/orgs/${organizationId}`),
      user: { id: caller.id, email: caller.email, displayName: caller.display_name },
      role: isRole(member.role) ? member.role : null,
      teams: await teamIdsOfUser(db, organizationId, caller.id),
      now,
    });
    return { serviceVisitorClaims };
  });

  app.get(
    '/orgs/:organizationId/visitor-claims/jwks.json',
    { schema: { params: OrgParams, response: { 200: Jwks } }, config: { publicKey: true } },
    async (request) => {
      const { organizationId } = request.params;
      if (!(await findOrganization(db, organizationId))) throw new DocsyncError('not_found', `organization ${organizationId} not found`);
      return organizationJwks(db, organizationId, clock.now().toISOString());
    },
  );
};

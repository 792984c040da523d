import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import formbody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import { Type } from '@sinclair/typebox';
import { DocsyncError, Id, badRequest } from '../../model/index.js';
import { findSamlProviderById, type SamlProviderRow } from '../store/saml-providers.js';
import { isActive } from '../sso/service-urls.js';
import { samlFor, serviceProviderMetadata } from '../sso/saml-sp.js';
import { SignInRefused, signIn } from '../sso/sign-in.js';
import { baseUrl } from '../urls.js';
import { startWebSession } from '../web/session.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A step of a browser sign-in (SAML): no bearer token yet; the route checks what it needs. */
    signIn?: boolean;
  }
}

const Params = Type.Object({ samlProviderId: Id });
/** Only a path of this server: never an absolute or protocol-relative URL (open redirect). */
const safeRedirect = (relay: string | undefined) => (relay !== undefined && /^\/(?![/\\])[^\s]*$/.test(relay) ? relay : undefined);

/**
 * The service-provider side of SAML 2.0 sign-in: metadata, the start (an AuthnRequest sent to
 * the identity provider by HTTP-Redirect) and the assertion consumer service (HTTP-POST).
 */
export const samlSignInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  await app.register(formbody);
  await app.register(cookie);

  async function usable(id: string): Promise<SamlProviderRow> {
    const provider = await findSamlProviderById(db, id);
    if (!provider) throw new DocsyncError('not_found', `SAML provider ${id} not found`);
    if (!isActive(provider))
      throw badRequest(`SAML provider ${id} is pending: it needs ssoURL and certificate before anyone can sign in with it`);
    return provider;
  }

  app.get('/sso/saml/:samlProviderId/metadata', { schema: { params: Params }, config: { signIn: true } }, async (request, reply) => {
    const provider = await findSamlProviderById(db, request.params.samlProviderId);
    if (!provider) throw new DocsyncError('not_found', `SAML provider ${request.params.samlProviderId} not found`);
    const xml = serviceProviderMetadata(db, provider, baseUrl(request));
    return reply.type('application/samlmetadata+xml').send(xml);
  });

  app.get(
    '/sso/saml/:samlProviderId/start',
    {
      schema: {
        params: Params,
        querystring: Type.Object({ redirect: Type.Optional(Type.String({ maxLength: 2048 })) }, { additionalProperties: false }),
      },
      config: { signIn: true },
    },
    async (request, reply) => {
      const provider = await usable(request.params.samlProviderId);
      const { redirect } = request.query;
      if (redirect !== undefined && safeRedirect(redirect) === undefined)
        throw badRequest('query.redirect must be a path on this server, starting with a single /');
      const url = await samlFor(db, provider, baseUrl(request)).getAuthorizeUrlAsync(redirect ?? '', request.host, {});
      return reply.redirect(url, 302);
    },
  );

  app.post(
    '/sso/saml/:samlProviderId/acs',
    {
      schema: {
        params: Params,
        body: Type.Object({
          SAMLResponse: Type.String({ minLength: 1, maxLength: 1024 * 1024 }),
          RelayState: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
      },
      config: { signIn: true },
    },
    async (request, reply) => {
      const provider = await usable(request.params.samlProviderId);
      const refuse = (reason: string) => {
        request.log.warn({ samlProvider: provider.id, organization: provider.org_id, reason }, 'SAML response refused');
        return new DocsyncError('unauthorized', `SAML response refused: ${reason}`);
      };
      let profile;
      try {
        ({ profile } = await samlFor(db, provider, baseUrl(request)).validatePostResponseAsync({
          SAMLResponse: request.body.SAMLResponse,
        }));
      } catch (error) {
        throw refuse(error instanceof Error ? error.message : String(error));
      }
      if (!profile) throw refuse('the response signs no one in');
      let session;
      try {
        session = await signIn(db, provider, profile, clock.now());
      } catch (error) {
        if (error instanceof SignInRefused) throw refuse(error.message);
        throw error;
      }
      request.log.info(
        { samlProvider: provider.id, organization: provider.org_id, user: session.user.id, created: session.created },
        'SAML sign-in',
      );
      // The browser gets the web pages' own session (docs/web.md): a random secret in an HttpOnly
      // cookie, stored hashed, ended with the token; never the token itself, in a cookie or a page.
      await startWebSession(request, reply, { userId: session.user.id, tokenId: session.tokenId });
      const target = safeRedirect(request.body.RelayState);
      if (target) return reply.redirect(target, 303);
      // A script that asked for JSON gets the API token, once, in the answer's body.
      if (request.headers.accept?.includes('application/json')) {
        return reply.send({
          user: { id: session.user.id, email: session.user.email },
          organization: provider.org_id,
          token: session.token,
        });
      }
      return reply.redirect('/app', 303);
    },
  );
};

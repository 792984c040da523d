import Fastify, { type FastifyInstance, type RouteOptions, type preValidationAsyncHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DOCSYNC_EXTENSIONS, DocsyncError, EXTENSIONS_HEADER, badRequest } from '../model/index.js';
import type { AppContext } from './context.js';
import { EventHub } from './events/hub.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandlers } from './errors.js';
import { logRequests, loggerOptions, type LogOptions } from './log.js';
import { findNulCharacter, validatorCompiler } from './validation.js';
import { bearerToken } from './auth/tokens.js';
import { userForToken } from './store/users.js';
import { userRoutes } from './routes/user.js';
import { organizationRoutes } from './routes/organizations.js';
import { spaceRoutes } from './routes/spaces.js';
import { collectionRoutes } from './routes/collections.js';
import { changeRequestRoutes } from './routes/change-requests.js';
import { searchRoutes } from './routes/search.js';
import { importRoutes } from './routes/import.js';
import { pdfRoutes } from './routes/pdf.js';
import { contentReadRoutes } from './routes/content-read.js';
import { changedPagesRoutes } from './routes/changed-pages.js';
import { fileRoutes } from './routes/files.js';
import { contentWriteRoutes } from './routes/content-write.js';
import { linkRoutes } from './routes/links.js';
import { siteRoutes } from './routes/sites.js';
import { siteShareLinkRoutes } from './routes/site-share-links.js';
import { commentRoutes } from './routes/comments.js';
import { commentReplyRoutes } from './routes/comment-replies.js';
import { commenterRoutes } from './routes/commenters.js';
import { siteSectionRoutes } from './routes/site-sections.js';
import { siteSectionGroupRoutes } from './routes/site-section-groups.js';
import { siteSpaceRoutes } from './routes/site-spaces.js';
import { siteStructureRoutes } from './routes/site-structure.js';
import { memberRoutes } from './routes/members.js';
import { memberContentRoutes } from './routes/member-content.js';
import { pingRoutes } from './routes/ping.js';
import { linkInviteRoutes } from './routes/link-invites.js';
import { contentPermissionRoutes } from './routes/content-permissions.js';
import { sitePublishedRoutes } from './routes/site-published.js';
import { teamRoutes } from './routes/teams.js';
import { teamMemberRoutes } from './routes/team-members.js';
import { openApiSpecRoutes } from './routes/openapi-specs.js';
import { openApiSpecVersionRoutes } from './routes/openapi-spec-versions.js';
import { translationRoutes } from './routes/translations.js';
import { samlProviderRoutes } from './routes/saml-providers.js';
import { samlSignInRoutes } from './routes/saml-sign-in.js';
import { integrationRoutes } from './routes/integrations.js';
import { integrationInstallationRoutes } from './routes/integration-installations.js';
import { integrationTargetRoutes } from './routes/integration-targets.js';
import { installedIntegrationRoutes } from './routes/installed-integrations.js';
import { appPages, isWebPath } from './web/index.js';
import { publishedSites, serveHostSite, siteOfHost } from './web/published.js';
import { eventRoutes, type EventRouteOptions } from './routes/events.js';
import { installRateLimit, type RateLimitOptions } from './rate-limit/index.js';

export interface AppOptions extends Omit<AppContext, 'allowPrivateFetch' | 'events'> {
  /** @default false */
  allowPrivateFetch?: boolean;
  /** Largest accepted request body in bytes. @default 10 MiB */
  bodyLimit?: number;
  /** The server log; none when absent (tests). */
  log?: LogOptions;
  /** The event streams' timing (routes/events.ts). */
  events?: EventRouteOptions;
  /** Requests per token and window on `/v1`; no limit when absent (tests, `docsync up`). */
  rateLimit?: RateLimitOptions;
  /** Called with every route as it is added (tests enumerate the API with it). */
  onRoute?: (route: RouteOptions) => void;
}

export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NO_BODY = Type.Object({}, { additionalProperties: false });

/** Builds the API; never listens (serve.ts does), so tests can run it on any port. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...loggerOptions(options.log),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    forceCloseConnections: true,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // The API speaks JSON only: a text/plain body is a 415, not a string that fails the schema.
  app.removeContentTypeParser('text/plain');
  // Clients (the official one included) send `Content-Type: application/json` on bodiless POSTs
  // such as merge or restore; an empty body then means "no body", not a parse error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') return done(null, undefined);
    return parseJson(request, text, done);
  });

  // A write that takes no body refuses one with fields, as every other route refuses fields it
  // does not know (docs/api.md, "Validation"): before, `POST .../merge` with a 5 MB body of junk
  // answered 200 (test/server/route-fuzz.test.ts found it). No body, or `{}`, is still fine.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((m) => WRITE_METHODS.has(m)) || route.schema?.body !== undefined) return;
    // The API's routes only: the pages' forms (sign-out's, with its CSRF field) check their own fields.
    if (!route.url.startsWith('/v1/')) return;
    route.schema = { ...route.schema, body: NO_BODY };
    // No body is `{}`; a JSON `null` stays a 400 (docs/api.md, "Bodies").
    const noBodyIsEmpty: preValidationAsyncHookHandler = async (request) => {
      if (request.body === undefined) request.body = {};
    };
    route.preValidation = [noBodyIsEmpty, ...[route.preValidation ?? []].flat()];
  });
  const onRoute = options.onRoute;
  if (onRoute) app.addHook('onRoute', (route) => onRoute(route));
  app.setValidatorCompiler(validatorCompiler);
  const events = new EventHub(options.db, { pollMs: options.events?.pollMs ?? 200 });
  app.decorate('ctx', {
    db: options.db,
    dialect: options.dialect,
    clock: options.clock,
    publicUrl: options.publicUrl,
    allowPrivateFetch: options.allowPrivateFetch ?? false,
    events,
  } satisfies AppContext);
  app.addHook('onClose', async () => events.stop());
  // A write's events are committed once it is answered: the hub reads them now, not at its next tick.
  app.addHook('onResponse', async (request) => {
    if (WRITE_METHODS.has(request.method)) events.wake();
  });
  app.decorateRequest('caller');
  installErrorHandlers(app);
  if (options.log) logRequests(app);
  // Before authentication, so a refused request costs a counter update and no token lookup.
  if (options.rateLimit) await installRateLimit(app, options.rateLimit, { db: options.db, clock: options.clock });

  // On every answer, errors and unknown routes included, so a client learns from its first
  // request which extensions it may send (docs/api.md); the hosted API sends no such header.
  const extensions = DOCSYNC_EXTENSIONS.join(',');
  app.addHook('onSend', async (_request, reply) => {
    reply.header(EXTENSIONS_HEADER, extensions);
  });

  app.addHook('onRequest', async (request, reply) => {
    // Signed download links (PDFs) carry their own time-limited authorisation in the URL; the
    // route checks it. Only routes that declare `signedUrl` are exempt, never unknown paths.
    if (request.routeOptions.config.signedUrl === true) return;
    // Public keys (an organization's JWK Set) are for anyone who holds a token to check.
    if (request.routeOptions.config.publicKey === true) return;
    // A SAML sign-in happens before its user has a token; those routes check the SAML messages.
    if (request.routeOptions.config.signIn === true) return;
    // The pages for people (server/web) sign in by session cookie, or are public sites.
    const route = request.routeOptions.url;
    if (route !== undefined ? isWebPath(route) : isWebPath(request.url)) return;
    // A published site with a `hostname` answers, on that host, every path no route has (docs/web.md).
    if (route === undefined) {
      const site = await siteOfHost(request);
      if (site) return serveHostSite(request, reply, site);
    }
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new DocsyncError('unauthorized', 'missing `Authorization: Bearer <token>` header');
    const user = await userForToken(app.ctx.db, token, app.ctx.clock.now().toISOString());
    if (!user) throw new DocsyncError('unauthorized', 'the bearer token is unknown or revoked (or expired)');
    request.caller = user;
  });
  app.addHook('preValidation', async (request) => {
    const field = findNulCharacter({ params: request.params, querystring: request.query, body: request.body });
    if (field !== undefined) throw badRequest(`${field} must not contain the NUL character (U+0000)`);
  });

  await app.register(
    async (v1) => {
      await v1.register(userRoutes);
      await v1.register(organizationRoutes);
      await v1.register(spaceRoutes);
      await v1.register(collectionRoutes);
      await v1.register(changeRequestRoutes);
      await v1.register(searchRoutes);
      await v1.register(importRoutes);
      await v1.register(pdfRoutes);
      await v1.register(contentReadRoutes);
      await v1.register(changedPagesRoutes);
      await v1.register(fileRoutes);
      await v1.register(contentWriteRoutes);
      await v1.register(linkRoutes);
      await v1.register(siteRoutes);
      await v1.register(siteShareLinkRoutes);
      await v1.register(commentRoutes);
      await v1.register(commentReplyRoutes);
      await v1.register(commenterRoutes);
      await v1.register(siteSectionRoutes);
      await v1.register(siteSectionGroupRoutes);
      await v1.register(siteSpaceRoutes);
      await v1.register(siteStructureRoutes);
      await v1.register(memberRoutes);
      await v1.register(memberContentRoutes);
      await v1.register(pingRoutes);
      await v1.register(eventRoutes, options.events ?? {});
      await v1.register(linkInviteRoutes);
      await v1.register(contentPermissionRoutes);
      await v1.register(sitePublishedRoutes);
      await v1.register(teamRoutes);
      await v1.register(teamMemberRoutes);
      await v1.register(openApiSpecRoutes);
      await v1.register(openApiSpecVersionRoutes);
      await v1.register(translationRoutes);
      await v1.register(samlProviderRoutes);
      await v1.register(samlSignInRoutes);
      await v1.register(integrationRoutes);
      await v1.register(integrationInstallationRoutes);
      await v1.register(integrationTargetRoutes);
      await v1.register(installedIntegrationRoutes);
    },
    { prefix: '/v1' },
  );
  await app.register(appPages, { prefix: '/app' });
  await app.register(publishedSites, { prefix: '/sites' });
  return app;
}

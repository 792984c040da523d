import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { DocsyncError } from '../../model/index.js';
import { isDatabaseUnavailable } from '../errors.js';
import { SignInNeeded } from './caller.js';
import { errorPage } from './html.js';
import { sendHtml } from './reply.js';
import { webSession } from './session.js';
import { signInRoutes } from './sign-in.js';
import { livePages } from './live.js';
import { orgPages } from './org-pages.js';
import { spacePages } from './space-pages.js';
import { changeRequestPages } from './change-requests.js';
import { sitePages } from './site-pages.js';

/** Paths served as pages for people (docs/web.md), not as the JSON API. */
export const isWebPath = (url: string) => /^\/(app|sites)(\/|\?|$)/.test(url);

/**
 * What every scope of the server's pages shares (the app behind `urls.app`, the published sites
 * behind `urls.published`): cookies, form bodies, and answers as HTML pages with a strict
 * Content-Security-Policy. An error is a page (a resource the caller may not see is a 404 page,
 * as in the API), and a signed-out visit to an app page is sent to sign in.
 */
export async function webScope(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });

  app.setErrorHandler(async (error: FastifyError | DocsyncError | SignInNeeded, request, reply) => sendWebError(error, request, reply));

  app.setNotFoundHandler(async (request, reply) =>
    sendHtml(reply, 404, errorPage(404, `Nothing is at ${request.url.split('?')[0]}.`, await chromeOf(request))),
  );
}

const chromeOf = async (request: FastifyRequest) => ({ session: await webSession(request).catch(() => undefined) });

/**
 * An error as a page (a resource the caller may not see is a 404 page, as in the API); a
 * signed-out visit to an app page is sent to sign in. `withSession: false` for answers outside
 * the web scopes (a site served by its hostname), where no session cookie is read.
 */
export async function sendWebError(
  error: FastifyError | DocsyncError | SignInNeeded | Error,
  request: FastifyRequest,
  reply: FastifyReply,
  withSession = true,
): Promise<FastifyReply> {
  const chrome = async () => (withSession ? chromeOf(request) : { session: undefined });
  if (error instanceof SignInNeeded) {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return sendHtml(reply, 401, errorPage(401, 'Sign in first.', { session: undefined }));
    return reply.redirect(`/app/sign-in?next=${encodeURIComponent(request.url)}`, 303);
  }
  if (error instanceof DocsyncError) {
    if (error.status >= 500) request.log.error({ err: error }, 'internal error');
    if (error.code === 'rate_limited' && typeof error.data?.retryAfter === 'number')
      void reply.header('retry-after', String(error.data.retryAfter));
    return sendHtml(reply, error.status, errorPage(error.status, error.message, await chrome()));
  }
  const status = (error as FastifyError).statusCode;
  if ((error as FastifyError).validation || (typeof status === 'number' && status >= 400 && status < 500)) {
    const code = typeof status === 'number' && status >= 400 && status < 500 ? status : 400;
    return sendHtml(reply, code, errorPage(code, 'The request was not understood.', await chrome()));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error, method: request.method, route: request.routeOptions.url }, 'database unavailable');
    void reply.header('retry-after', '1');
    return sendHtml(
      reply,
      503,
      errorPage(503, 'The server cannot reach its database right now. Try again in a moment.', { session: undefined }),
    );
  }
  request.log.error({ err: error, method: request.method, route: request.routeOptions.url }, 'unhandled error');
  return sendHtml(reply, 500, errorPage(500, 'Something went wrong on the server; its log has the details.', { session: undefined }));
}

/** The app behind `urls.app` (registered under /app). */
export const appPages: FastifyPluginAsync = async (app) => {
  await webScope(app);
  await app.register(signInRoutes);
  await app.register(orgPages);
  await app.register(spacePages);
  await app.register(changeRequestPages);
  await app.register(sitePages);
  await app.register(livePages);
};

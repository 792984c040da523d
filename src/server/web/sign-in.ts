import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { hashToken } from '../auth/tokens.js';
import { liveTokenByHash } from '../store/web-sessions.js';
import { checkSessionForm, checkSignedOutForm, signedOutFormToken } from './csrf.js';
import { appPage, esc } from './html.js';
import { endWebSession, startWebSession, webSession } from './session.js';
import { sendHtml } from './reply.js';
import { signInOptions } from './sign-in-options.js';

/** Only a path of this server's pages: never another site (an open redirect). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(app|sites)(\/|$|\?)/.test(next) && !/[\\\s]/.test(next) && !next.startsWith('//') ? next : '/app';
}

const Next = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2048 })) });
const SignInBody = Type.Object({
  token: Type.String({ maxLength: 512 }),
  csrf: Type.String({ maxLength: 128 }),
  next: Type.Optional(Type.String({ maxLength: 2048 })),
});

/** Sign in with an API token, sign out. Posted, never in a URL: a token in a URL would be logged. */
export const signInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const form = async (
    request: Parameters<typeof signedOutFormToken>[0],
    reply: Parameters<typeof signedOutFormToken>[1],
    next: string,
    problem?: string,
  ) => {
    const csrf = signedOutFormToken(request, reply);
    const others = await signInOptions(request, next);
    const body = `<div class="app-error"><h1>Sign in</h1>${problem ? `<p role="alert" class="app-status">${esc(problem)}</p>` : ''}
<form class="app-form" method="post" action="/app/sign-in"><input type="hidden" name="csrf" value="${esc(csrf)}"><input type="hidden" name="next" value="${esc(next)}">
<label for="token">API token</label><input type="password" id="token" name="token" autocomplete="current-password" required>
<p class="app-muted">A token from <code>docsync admin token create</code> or your administrator. It is sent once; the browser keeps a session cookie, not the token.</p>
<button class="app-primary" type="submit">Sign in</button></form>${others}</div>`;
    return sendHtml(reply, problem ? 401 : 200, appPage('Sign in', body, { session: undefined }));
  };

  app.get('/sign-in', { schema: { querystring: Next } }, async (request, reply) => {
    const next = safeNext(request.query.next);
    if (await webSession(request)) return reply.redirect(next, 303);
    return form(request, reply, next);
  });

  app.post('/sign-in', { schema: { body: SignInBody } }, async (request, reply) => {
    checkSignedOutForm(request);
    const next = safeNext(request.body.next);
    const token = await liveTokenByHash(app.ctx.db, hashToken(request.body.token.trim()));
    if (!token) {
      request.log.info({ reason: 'unknown or revoked token' }, 'web sign-in refused');
      return form(request, reply, next, 'That token is unknown or revoked.');
    }
    await startWebSession(request, reply, { userId: token.user_id, tokenId: token.id });
    return reply.redirect(next, 303);
  });

  app.post('/sign-out', async (request, reply) => {
    if (await webSession(request)) await checkSessionForm(request);
    await endWebSession(request, reply);
    return reply.redirect('/app/sign-in', 303);
  });
};

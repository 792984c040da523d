import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DocsyncError } from '../../model/index.js';
import { baseUrl } from '../urls.js';
import { webSession } from './session.js';

/** The double-submit cookie of forms posted before there is a session (the sign-in form). */
const CSRF_COOKIE = 'docsync_csrf';

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** A token for a signed-out form: set as an HttpOnly cookie, written into the form. */
export function signedOutFormToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[CSRF_COOKIE];
  if (existing && /^[\w-]{32}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  void reply.setCookie(CSRF_COOKIE, token, { path: '/app', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' });
  return token;
}

/** A browser's `Origin`, when sent, must be this server's: a cross-site post is refused early. */
function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return;
  if (origin !== new URL(baseUrl(request)).origin && origin !== `${request.protocol}://${request.host}`) {
    throw new DocsyncError('forbidden', 'the form was posted from another site');
  }
}

const formField = (request: FastifyRequest): string => {
  const body = request.body as Record<string, unknown> | undefined;
  return typeof body?.csrf === 'string' ? body.csrf : '';
};

/** Checks a signed-out form's token against its cookie (403 otherwise). */
export function checkSignedOutForm(request: FastifyRequest): void {
  checkOrigin(request);
  const cookie = request.cookies[CSRF_COOKIE];
  if (!cookie || !same(cookie, formField(request)))
    throw new DocsyncError('forbidden', 'the form expired or was not sent from this site; reload the page and try again');
}

/** Checks a signed-in form's token against the session's (403 otherwise). */
export async function checkSessionForm(request: FastifyRequest): Promise<void> {
  checkOrigin(request);
  const current = await webSession(request);
  if (!current || !same(current.session.csrf, formField(request))) {
    throw new DocsyncError('forbidden', 'the form expired or was not sent from this site; reload the page and try again');
  }
}

import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashToken } from '../auth/tokens.js';
import {
  deleteExpiredWebSessions,
  deleteWebSession,
  findLiveWebSession,
  insertWebSession,
  type WebSessionRow,
} from '../store/web-sessions.js';
import type { UserRow } from '../store/users.js';

/** The cookie of a signed-in browser: a random secret, whose sha256 keys the stored session. */
export const WEB_SESSION_COOKIE = 'docsync_web';
/** How long a session lasts from sign-in: it does not slide. */
export const WEB_SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

export interface WebSession {
  session: WebSessionRow;
  user: UserRow;
}

const sessions = new WeakMap<FastifyRequest, Promise<WebSession | undefined>>();

export function cookieOptions(request: FastifyRequest, maxAgeS: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https', maxAge: maxAgeS };
}

/**
 * Opens a session for a user who proved who they are (an API token on the sign-in page; the
 * hook for other sign-ins such as SAML: call this with the token the sign-in created) and sets
 * its cookie. The session ends at expiry, at sign-out, or when `tokenId` is revoked.
 */
export async function startWebSession(
  request: FastifyRequest,
  reply: FastifyReply,
  who: { userId: string; tokenId: string },
): Promise<void> {
  const { db, clock } = request.server.ctx;
  const now = clock.now();
  const secret = randomBytes(32).toString('base64url');
  await deleteExpiredWebSessions(db, now.toISOString());
  await insertWebSession(db, {
    id: hashToken(secret),
    user_id: who.userId,
    token_id: who.tokenId,
    csrf: randomBytes(24).toString('base64url'),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + WEB_SESSION_TTL_MS).toISOString(),
  });
  void reply.setCookie(WEB_SESSION_COOKIE, secret, cookieOptions(request, WEB_SESSION_TTL_MS / 1000));
}

/** The request's live session, read once per request; undefined when signed out. */
export function webSession(request: FastifyRequest): Promise<WebSession | undefined> {
  let found = sessions.get(request);
  if (!found) {
    const secret = request.cookies[WEB_SESSION_COOKIE];
    const { db, clock } = request.server.ctx;
    found = secret ? findLiveWebSession(db, hashToken(secret), clock.now().toISOString()) : Promise.resolve(undefined);
    sessions.set(request, found);
  }
  return found;
}

export async function endWebSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const current = await webSession(request);
  if (current) await deleteWebSession(request.server.ctx.db, current.session.id);
  void reply.clearCookie(WEB_SESSION_COOKIE, { path: '/' });
}

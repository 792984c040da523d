import type { FastifyRequest } from 'fastify';
import { webSession, type WebSession } from './session.js';

/** Thrown when a page needs a signed-in person and there is none: answered by a redirect to sign in. */
export class SignInNeeded extends Error {}

/** The signed-in person of an app page (also set as `request.caller`, as the API's routes have it). */
export async function requireWebCaller(request: FastifyRequest): Promise<WebSession> {
  const current = await webSession(request);
  if (!current) throw new SignInNeeded();
  request.caller = current.user;
  return current;
}

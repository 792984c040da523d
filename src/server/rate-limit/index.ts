import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { DocsyncError } from '../../model/index.js';
import { bearerToken, hashToken } from '../auth/tokens.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import { DatabaseRateLimitStore } from './database-store.js';

/** How many API requests one token may make per window (docs/api.md, "Rate limits"). */
export interface RateLimitOptions {
  max: number;
  windowMs: number;
}

/** The window `docsync serve --rate-limit` counts in, as the hosted API's limits are per minute. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Who a request counts against: its token (by hash, so the table never holds one), else its
 * address. An unknown token counts against itself, so guessing tokens is limited too.
 */
function callerKey(request: FastifyRequest): string {
  const token = bearerToken(request.headers.authorization);
  return token ? `token:${hashToken(token)}` : `address:${request.ip}`;
}

/**
 * Limits the API (`/v1/...`) per token as the hosted API does: `X-RateLimit-Limit`,
 * `-Remaining` and `-Reset` (the window's end, epoch seconds, as GitBook documents it) on every
 * answer, and past the limit a 429 with `Retry-After`. Counts are kept in the database so that
 * every process on it shares them. The server's own pages (`/app`, `/sites`) are not limited:
 * they are for people and have sessions. The check is a hook of the whole server added before
 * authentication's (the plugin's own hooks are per route, so they would run after it): a
 * refused request costs one counter update and no token lookup, and unknown tokens are limited.
 */
export async function installRateLimit(
  app: FastifyInstance,
  options: RateLimitOptions,
  store: { db: Kysely<Database>; clock: Clock },
): Promise<void> {
  const Store = class extends DatabaseRateLimitStore {
    constructor() {
      super(store.db, store.clock);
    }
  };
  await app.register(rateLimit, {
    global: false,
    max: options.max,
    timeWindow: options.windowMs,
    store: Store,
    // A counter the database could not update lets the request through rather than failing it.
    skipOnError: true,
    keyGenerator: callerKey,
  });
  const limit = app.createRateLimit();
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/v1/')) return;
    const state = await limit(request);
    if (state.isAllowed) return;
    const reset = Math.ceil((store.clock.now().getTime() + state.ttl) / 1000);
    void reply.header('x-ratelimit-limit', state.max).header('x-ratelimit-remaining', state.remaining).header('x-ratelimit-reset', reset);
    if (state.isExceeded) {
      const seconds = Math.max(1, state.ttlInSeconds);
      throw new DocsyncError('rate_limited', `API rate limit exceeded; try again in ${seconds} seconds`, { retryAfter: seconds });
    }
  });
}

import type { Kysely } from 'kysely';
import type { Database } from './store/schema.js';
import type { Dialect } from './store/db.js';
import type { Clock } from './util/clock.js';
import type { UserRow } from './store/users.js';
import type { EventHub } from './events/hub.js';

/** What every route reaches through `app.ctx`: the one cross-cutting decoration. */
export interface AppContext {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  /** Absolute base URL for `urls.*`; derived from the request when not configured. */
  publicUrl: string | undefined;
  /** Let server-side fetches (file uploads by URL, imports) reach loopback and private addresses. */
  allowPrivateFetch: boolean;
  /** The process's one reader of new events: the API's event streams and the app pages' live updates share its polling. */
  events: EventHub;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    caller: UserRow;
  }
}

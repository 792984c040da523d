import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { countRequest, requestCount } from '../store/rate-limits.js';
import type { Clock } from '../util/clock.js';

/** What @fastify/rate-limit asks of a store: the window's count and the milliseconds it has left. */
interface WindowState {
  current: number;
  ttl: number;
}
type Done = (error: Error | null, state?: WindowState) => void;

/**
 * A @fastify/rate-limit store that counts in the database (fixed windows aligned on the epoch),
 * so that several server processes on one database share each caller's limit; the plugin's own
 * stores count per process (memory) or need Redis.
 */
export class DatabaseRateLimitStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  incr(key: string, done: Done, timeWindow: number): void {
    const now = this.clock.now().getTime();
    const start = now - (now % timeWindow);
    countRequest(this.db, key, start).then(
      (current) => done(null, { current, ttl: start + timeWindow - now }),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  }

  read(key: string, done: Done, timeWindow: number): void {
    const now = this.clock.now().getTime();
    const start = now - (now % timeWindow);
    requestCount(this.db, key, start).then(
      (current) => done(null, { current, ttl: current === 0 ? 0 : start + timeWindow - now }),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Route-level settings would get a store of their own; every route shares one limit here. */
  child(): DatabaseRateLimitStore {
    return this;
  }
}

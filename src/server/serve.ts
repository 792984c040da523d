import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from './app.js';
import type { EventRouteOptions } from './routes/events.js';
import { writesInfo, type LogOptions } from './log.js';
import { openDatabase, type Db, type StoreOptions } from './store/db.js';
import { bootstrapStore, checkBootstrapToken } from './bootstrap.js';
import { systemClock, type Clock } from './util/clock.js';
import { startJobRunner, type JobRunner } from './jobs/runner.js';
import type { RateLimitOptions } from './rate-limit/index.js';
import { DEFAULT_EVENT_RETENTION_MS, schedulePurgeEvents } from './jobs/purge-events.js';

export interface ServeOptions extends StoreOptions {
  host: string;
  port: number;
  bootstrapToken?: string;
  publicUrl?: string;
  /** Let server-side fetches reach loopback and private addresses. @default false */
  allowPrivateFetch?: boolean;
  clock?: Clock;
  /** How often the job runner looks for due jobs, in ms. @default 60000 */
  jobIntervalMs?: number;
  /** The server log (one JSON line per request, errors with their stack); none when absent. */
  log?: LogOptions;
  /** The event streams' timing (routes/events.ts). */
  events?: EventRouteOptions;
  /** How long events are kept for subscribers to resume from, in ms (`DOCSYNC_EVENT_RETENTION_DAYS`). @default 7 days */
  eventRetentionMs?: number;
  /** Requests per token and window on `/v1` (`docsync serve --rate-limit`); no limit when absent. */
  rateLimit?: RateLimitOptions;
  /** Called with every route as it is added (tests enumerate the API with it). */
  onRoute?: (route: RouteOptions) => void;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  db: Db;
  jobs: JobRunner;
  close(): Promise<void>;
}

/** Opens the store, applies migrations, bootstraps, starts the job runner and listens. */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  if (options.bootstrapToken !== undefined) checkBootstrapToken(options.bootstrapToken);
  const db = await openDatabase(options);
  try {
    if (options.bootstrapToken) await bootstrapStore(db.kysely, options.bootstrapToken, clock.now().toISOString());
    const app = await buildApp({
      db: db.kysely,
      dialect: db.dialect,
      clock,
      publicUrl: options.publicUrl,
      allowPrivateFetch: options.allowPrivateFetch ?? false,
      ...(options.log ? { log: options.log } : {}),
      ...(options.events ? { events: options.events } : {}),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    });
    // Fastify announces the address at info level; `docsync serve` prints it as its first line,
    // so the log starts with the first request.
    if (options.log && writesInfo(options.log.level)) app.log.level = 'warn';
    await app.listen({ host: options.host, port: options.port });
    if (options.log) app.log.level = options.log.level;
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    await schedulePurgeEvents(db.kysely, options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS, clock.now());
    const jobs = startJobRunner({ db: db.kysely, clock, intervalMs: options.jobIntervalMs ?? 60_000 });
    let closing: Promise<void> | undefined;
    return {
      url: `http://${host}:${port}`,
      app,
      db,
      jobs,
      close() {
        closing ??= (async () => {
          await jobs.stop();
          await app.close();
          await db.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

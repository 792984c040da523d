import { RATE_LIMIT_WINDOW_MS, LOG_LEVELS, serve, type LogLevel, type RateLimitOptions } from '../../server/index.js';
import { ExitError, EXIT } from '../exit.js';
import { storeOptionsFromEnv } from './store-options.js';

export interface ServeCommandOptions {
  host: string;
  port: string;
  data: string;
  publicUrl?: string;
  allowPrivateFetch?: boolean;
  logLevel: string;
  rateLimit: string;
}

export function parseLogLevel(value: string): LogLevel {
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    throw new ExitError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`, EXIT.usage);
  }
  return value as LogLevel;
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ExitError(`--port must be an integer from 0 to 65535, got "${value}"`, EXIT.usage);
  }
  return port;
}

/** `--rate-limit <n>`: API requests per token and minute; 0 turns the limit off. */
export function parseRateLimit(value: string): RateLimitOptions | undefined {
  const max = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(max)) {
    throw new ExitError(`--rate-limit must be a whole number of requests per minute (0 for no limit), got "${value}"`, EXIT.usage);
  }
  return max === 0 ? undefined : { max, windowMs: RATE_LIMIT_WINDOW_MS };
}

/** `DOCSYNC_EVENT_RETENTION_DAYS`: how long event streams can be resumed from (docs/api.md); absent: 7 days. */
function eventRetentionMs(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const days = Number(value);
  if (!Number.isFinite(days) || days <= 0)
    throw new ExitError(`DOCSYNC_EVENT_RETENTION_DAYS must be a positive number of days, got "${value}"`, EXIT.usage);
  return days * 24 * 60 * 60 * 1000;
}

/** `docsync serve`: runs the API until SIGINT or SIGTERM, then closes cleanly. */
export async function serveCommand(options: ServeCommandOptions): Promise<void> {
  const port = parsePort(options.port);
  const level = parseLogLevel(options.logLevel);
  const bootstrapToken = process.env.DOCSYNC_BOOTSTRAP_TOKEN;
  const retention = eventRetentionMs(process.env.DOCSYNC_EVENT_RETENTION_DAYS);
  const rateLimit = parseRateLimit(options.rateLimit);
  const server = await serve({
    host: options.host,
    port,
    ...storeOptionsFromEnv(options.data),
    ...(bootstrapToken ? { bootstrapToken } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    allowPrivateFetch: options.allowPrivateFetch === true,
    ...(retention !== undefined ? { eventRetentionMs: retention } : {}),
    ...(rateLimit ? { rateLimit } : {}),
    // One JSON line per request and every server-side error with its stack, on stdout.
    log: { level, stream: process.stdout },
  });
  console.log(`docsync API listening on ${server.url}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void server.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

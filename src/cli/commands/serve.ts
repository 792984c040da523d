import { LOG_LEVELS, serve, type LogLevel } from '../../server/index.js';
import { ExitError, EXIT } from '../exit.js';
import { storeOptionsFromEnv } from './store-options.js';

export interface ServeCommandOptions {
  host: string;
  port: string;
  data: string;
  publicUrl?: string;
  allowPrivateFetch?: boolean;
  logLevel: string;
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

/** `docsync serve`: runs the API until SIGINT or SIGTERM, then closes cleanly. */
export async function serveCommand(options: ServeCommandOptions): Promise<void> {
  const port = parsePort(options.port);
  const level = parseLogLevel(options.logLevel);
  const bootstrapToken = process.env.DOCSYNC_BOOTSTRAP_TOKEN;
  const server = await serve({
    host: options.host,
    port,
    ...storeOptionsFromEnv(options.data),
    ...(bootstrapToken ? { bootstrapToken } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    allowPrivateFetch: options.allowPrivateFetch === true,
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

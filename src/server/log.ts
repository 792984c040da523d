import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';

/** Levels `docsync serve --log-level` accepts (pino's), quietest last. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where the server's log goes: a level and a stream of JSON lines (stdout for `docsync serve`). */
export interface LogOptions {
  level: LogLevel;
  stream: { write(line: string): unknown };
}

/**
 * Fastify's logger (pino), configured so that a line never carries a secret: Fastify's own
 * per-request lines (which hold the URL, so a signed link's signature) are off, and `logRequests`
 * writes one line per answered request instead. Errors keep their stack (pino's `err`).
 */
export function loggerOptions(log: LogOptions | undefined): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  const logController = new LogController({ disableRequestLogging: true });
  if (!log) return { logger: false, logController };
  return { logger: { level: log.level, stream: log.stream }, logController };
}

/** True when `level` writes info lines (Fastify's own announcement of its address is one). */
export const writesInfo = (level: LogLevel): boolean => LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf('info');

/**
 * One JSON line per request, when its answer is sent: method, route (the template, as
 * `/v1/spaces/:spaceId`, so neither ids of unknown routes' queries nor signatures are logged;
 * the path without its query for a request no route matched), status, response time in ms and
 * the caller's user id. Never a header, a token or a body.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    request.log.info(
      {
        method: request.method,
        ...(route !== undefined ? { route } : { path: request.url.split('?')[0] }),
        status: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
        caller: (request.caller as { id?: string } | null | undefined)?.id ?? null,
      },
      'request',
    );
  });
}

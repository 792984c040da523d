import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DocsyncError, ERROR_CODES } from '../model/index.js';

/** Every status the catalogue knows; a client never sees another 4xx. */
const CATALOGUE_STATUSES: ReadonlySet<number> = new Set(Object.values(ERROR_CODES));

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** `body.parent.title`, `query.limit`: the field a validation error is about. */
function fieldOf(context: string, issue: ValidationIssue): string {
  const path = issue.instancePath.split('/').filter(Boolean).join('.');
  return path ? `${context}.${path}` : context;
}

export function validationMessage(context: string, issue: ValidationIssue): string {
  const field = fieldOf(context, issue);
  switch (issue.keyword) {
    case 'additionalProperties':
      return `${field} has an unknown field \`${String(issue.params.additionalProperty)}\``;
    case 'required':
      return `${field} is missing the required field \`${String(issue.params.missingProperty)}\``;
    case 'maxLength':
      return `${field} must be at most ${String(issue.params.limit)} characters`;
    case 'minLength':
      return `${field} must be at least ${String(issue.params.limit)} characters`;
    case 'maximum':
      return `${field} must be at most ${String(issue.params.limit)}`;
    case 'minimum':
      return `${field} must be at least ${String(issue.params.limit)}`;
    case 'type': {
      const type = String(issue.params.type);
      return `${field} must be ${type === 'object' ? 'a JSON object' : type === 'array' ? 'an array' : `a ${type}`}`;
    }
    case 'format':
      return `${field} must be a valid ${String(issue.params.format)}`;
    default:
      return `${field} ${issue.message ?? 'is invalid'}`;
  }
}

/** How messages name the parts of a request. */
const CONTEXT_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** A unique index refused a write: PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** PostgreSQL 40P01 (deadlock detected) and 40001 (serialization failure). */
function isConcurrencyAbort(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * The database cannot be reached or is going away: PostgreSQL's connection exceptions (class 08),
 * administrator and crash shutdowns and "starting up" (57P01-57P03), a refused or reset socket,
 * and node-postgres's own errors for a lost or unobtainable connection (no code). Nothing of the request's transaction
 * was committed, so the same request can be sent again once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (code.startsWith('08') || ['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes(code))
  )
    return true;
  return (
    typeof message === 'string' &&
    (/^Connection terminated/.test(message) ||
      // A statement on a client whose connection already failed (often the ROLLBACK after it).
      /is not queryable$/.test(message) ||
      /^timeout exceeded when trying to connect/.test(message))
  );
}

/** Seconds a client is told to wait before sending a request again while the database is away. */
const DATABASE_RETRY_AFTER_S = 1;

/** The one place that turns an error into an HTTP answer: `{"error": {"code", "message"}}`. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | DocsyncError, request, reply) => {
    if (error instanceof DocsyncError) {
      if (error.status >= 500) request.log.error({ err: error }, 'internal error');
      if (error.code === 'rate_limited' && typeof error.data?.retryAfter === 'number') {
        void reply.header('retry-after', String(error.data.retryAfter));
      }
      return reply.status(error.status).send({ error: { code: error.status, message: error.message } });
    }
    const fastifyError = error as FastifyError & { validationContext?: string };
    if (fastifyError.validation) {
      const issue = fastifyError.validation[0] as ValidationIssue | undefined;
      const message = issue
        ? validationMessage(CONTEXT_NAMES[fastifyError.validationContext ?? ''] ?? 'request', issue)
        : fastifyError.message;
      return reply.status(400).send({ error: { code: 400, message } });
    }
    const status = fastifyError.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code = CATALOGUE_STATUSES.has(status) ? status : 400;
      return reply.status(code).send({ error: { code, message: clientMessage(fastifyError) } });
    }
    if (isUniqueViolation(error)) {
      // Two writers raced past the same check-then-write; the database kept one of them.
      return reply
        .status(409)
        .send({ error: { code: 409, message: 'another request just took this value; read the resource again and retry' } });
    }
    if (isConcurrencyAbort(error)) {
      // PostgreSQL broke a deadlock or a serialisation conflict by aborting this transaction;
      // nothing of it was written, and the same request can simply be sent again.
      return reply
        .status(409)
        .send({ error: { code: 409, message: 'a concurrent request touched the same content; nothing was written, retry' } });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error, method: request.method, route: request.routeOptions.url }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ error: { code: 503, message: 'the database is not reachable right now; nothing was written, retry shortly' } });
    }
    // What the answer's message promises: the stack and details, on the server side only.
    request.log.error({ err: error, method: request.method, route: request.routeOptions.url }, 'unhandled error');
    return reply.status(500).send({ error: { code: 500, message: 'internal error; the server log has the details' } });
  });

  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send({ error: { code: 404, message: `no route for ${request.method} ${request.url.split('?')[0]}` } });
  });
}

/**
 * The router rejects some URLs before any route or hook runs (a broken percent-encoding, a path
 * segment longer than the router accepts); Fastify would answer those with its own body.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'a path segment is longer than the server accepts'
      : 'the request path is not a valid URL (broken percent-encoding)';
  void reply.status(400).send({ error: { code: 400, message } });
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request body is larger than the server accepts';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'request body must be application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'request body is empty but Content-Type is application/json';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    default:
      // Fastify's own 4xx messages name the problem and carry no internals.
      return error.message;
  }
}

/**
 * Requests Node's HTTP parser refuses before fastify routes them (a request line or headers over
 * Node's 16 KiB, a malformed request, a client too slow to send its headers) get the API's error
 * body too, not fastify's `{"error","message","statusCode"}` (test/server/route-fuzz.test.ts found
 * a long query string answered that way).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'the request line and headers are larger than the server accepts (16 KiB)']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request did not arrive in time']
        : [400, 'the request is not valid HTTP'];
  const body = JSON.stringify({ error: { code: status, message } });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}

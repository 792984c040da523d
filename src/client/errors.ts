import { BaseError } from '../model/index.js';

/**
 * The client's own failures. Each has a stable `code` to compare (never the message text), and no
 * message ever holds the token: every text that came from outside (the server's `error.message`,
 * a socket error) passes through {@link redact} first, so a server that echoes the Authorization
 * header cannot make the client leak it into a log.
 */
export const CLIENT_ERROR_CODES = [
  /** The server answered a failure status (after any retries): {@link ApiError}. */
  'api-error',
  /** No answer came (refused, reset, timed out) after the retries allowed: {@link ConnectionError}. */
  'connection-failed',
  /** A bad client option or batch limit (a base URL that is not http(s), an empty token, ...). */
  'invalid-option',
  /** A single change no batch can hold (a file over the API's limit). */
  'batch-too-large',
] as const;

export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

export class ClientError extends BaseError<ClientErrorCode> {
  constructor(code: ClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, { cause: options?.cause });
  }
}

export interface ApiErrorDetails {
  /** Milliseconds the server asked to wait (`Retry-After` or `X-RateLimit-Reset`), when it said. */
  retryAfter?: number;
  /** `GET /v1/spaces/abc`: the request that failed (path and query, never a header). */
  request?: string;
  /**
   * Set when a merge or update answered 200 with `result: "conflicts"` (the hosted API's way):
   * the client surfaces it as a 409, and this is the revision the server reported.
   */
  conflictRevision?: string;
}

/**
 * The server answered with a failure status: `message` is the server's `error.message` (or the
 * status text when the body is not the documented JSON), `status` the HTTP status.
 */
export class ApiError extends ClientError {
  readonly status: number;
  readonly retryAfter: number | undefined;
  readonly request: string | undefined;
  readonly conflictRevision: string | undefined;

  constructor(status: number, message: string, details: ApiErrorDetails = {}) {
    super('api-error', message);
    this.status = status;
    this.retryAfter = details.retryAfter;
    this.request = details.request;
    this.conflictRevision = details.conflictRevision;
  }
}

/** The request never got an answer (refused, reset, timed out) after the retries allowed. */
export class ConnectionError extends ClientError {
  /** The system or undici code: `ECONNREFUSED`, `ECONNRESET`, `UND_ERR_SOCKET`, ... */
  readonly causeCode: string | undefined;
  readonly request: string;

  constructor(request: string, causeCode: string | undefined, message: string, cause: unknown) {
    super('connection-failed', `${request}: ${message}`, { cause });
    this.causeCode = causeCode;
    this.request = request;
  }
}

/** Replaces every occurrence of the secret (and its URL-encoded form) with `***`. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  let out = text.split(secret).join('***');
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) out = out.split(encoded).join('***');
  return out;
}

/** True for an ApiError (of `status`, when given): the check callers use instead of reading messages. */
export function isApiError(value: unknown, status?: number): value is ApiError {
  return value instanceof ApiError && (status === undefined || value.status === status);
}

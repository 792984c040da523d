import { BaseError } from './base-error.js';

/**
 * The closed catalogue of the server's error codes. Every failure the server answers carries one
 * of these codes; the HTTP status is fixed by the code.
 * docs/api.md lists them all, and test/model/errors.test.ts keeps the two in step.
 */
export const ERROR_CODES = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  space_locked: 409,
  restore_window_passed: 409,
  payload_too_large: 413,
  document_too_complex: 422,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The server's failures, answered as `{"error": {"code", "message"}}`; the code decides the HTTP
 * status. Every code but `internal` is expected (the caller's doing). The sync tool has its own
 * codes for local failures (`SyncError`), and meets these only through the client's `ApiError`.
 */
export class DocsyncError extends BaseError<ErrorCode> {
  readonly status: number;

  constructor(code: ErrorCode, message: string, data?: Record<string, unknown>) {
    super(code, message, { ...(data === undefined ? {} : { data }), expected: code !== 'internal' });
    this.status = ERROR_CODES[code];
  }
}

export const badRequest = (message: string) => new DocsyncError('invalid_request', message);
export const notFound = (message: string) => new DocsyncError('not_found', message);
export const forbidden = (message: string) => new DocsyncError('forbidden', message);
export const conflict = (message: string, data?: Record<string, unknown>) => new DocsyncError('conflict', message, data);

export function isDocsyncError(value: unknown): value is DocsyncError {
  return value instanceof DocsyncError;
}

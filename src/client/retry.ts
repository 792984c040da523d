import { ClientError } from './errors.js';

/**
 * The retry policy as data, and one pure function that applies it. The wrapper in request.ts only
 * sleeps for what {@link retryDelay} returns, so the whole policy is tested without a clock.
 *
 * Which requests are retried (docs/client.md, "Retries"):
 * - Idempotent requests (GET, HEAD, PUT, DELETE, OPTIONS, and any request sent with
 *   `idempotent: true`) are retried on the statuses and connection errors below, since sending
 *   them twice does what sending them once does.
 * - Any other request (POST, PATCH) is retried only when the answer proves it was not processed:
 *   a 429 (the rate limiter refused it before it ran), a 503 that carries `Retry-After` (the server
 *   says it is unavailable, not that it failed half-way), or a connection that was never
 *   established (refused, connect timeout). A reset or a 502/504 after the body was sent may mean
 *   the batch landed, so it is the caller's to check (the sync engine reads the remote head first).
 */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. @default 5 */
  retries: number;
  /** First backoff ceiling in ms; attempt n waits a random time in [0, baseDelay * 2^n). @default 500 */
  baseDelay: number;
  /** Longest wait in ms, for backoff and for what the server asks alike. @default 30000 */
  maxDelay: number;
  /** Answers retried for idempotent requests. @default [429, 502, 503, 504] */
  statuses: readonly number[];
  /** Connection errors retried for idempotent requests. */
  errorCodes: readonly string[];
  /** Connection errors that prove nothing was sent: retried for every method. */
  notSentCodes: readonly string[];
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  retries: 5,
  baseDelay: 500,
  maxDelay: 30_000,
  statuses: [429, 502, 503, 504],
  errorCodes: [
    'ECONNRESET',
    'ECONNREFUSED',
    'EPIPE',
    'ETIMEDOUT',
    'EAI_AGAIN',
    'UND_ERR_SOCKET',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
  ],
  notSentCodes: ['ECONNREFUSED', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'],
});

export const IDEMPOTENT_METHODS: readonly string[] = ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'];

export type HeaderMap = Record<string, string | string[] | undefined>;

/** What one attempt ended with: an answer, or a transport error with its code. */
export type AttemptOutcome = { kind: 'response'; status: number; headers: HeaderMap } | { kind: 'error'; code: string | undefined };

export interface RetryContext {
  /** Retries already made for this request (0 after the first attempt). */
  retried: number;
  idempotent: boolean;
  /** Epoch milliseconds, to read an HTTP date or an epoch reset time. */
  now: number;
  /** A number in [0, 1), for the jitter. */
  random: number;
}

/** One header's value; undici gives lower-case names and arrays for repeated headers. */
export function header(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Milliseconds the server asked the client to wait: `Retry-After` (seconds or an HTTP date),
 * else, on a 429, `X-RateLimit-Reset` (epoch seconds, as GitBook documents it; a value below 10^9
 * cannot be a date after 2001 and is read as seconds from now, as some servers send it). GitBook
 * sends the reset time on every answer; it says when the rate window ends, which matters only to
 * an answer that was rate limited. Undefined if the server named no delay.
 */
export function serverDelay(headers: HeaderMap, now: number, status: number): number | undefined {
  const retryAfter = header(headers, 'retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = status === 429 ? header(headers, 'x-ratelimit-reset')?.trim() : undefined;
  if (reset && /^\d+(\.\d+)?$/.test(reset)) {
    const seconds = Number(reset);
    return seconds < 1e9 ? Math.round(seconds * 1000) : Math.max(0, Math.round(seconds * 1000 - now));
  }
  return undefined;
}

function retryable(policy: RetryPolicy, outcome: AttemptOutcome, idempotent: boolean): boolean {
  if (outcome.kind === 'error') {
    const code = outcome.code ?? '';
    return policy.notSentCodes.includes(code) || (idempotent && policy.errorCodes.includes(code));
  }
  if (!policy.statuses.includes(outcome.status)) return false;
  if (idempotent) return true;
  return outcome.status === 429 || (outcome.status === 503 && header(outcome.headers, 'retry-after') !== undefined);
}

/**
 * How long to wait before retrying, or undefined when the outcome is final (a success, an answer
 * that retrying cannot change, a non-idempotent request that may have landed, or no retries left).
 * The server's own delay wins over backoff; both are capped by `maxDelay`. Backoff uses full
 * jitter, so clients that failed together do not come back together.
 */
export function retryDelay(policy: RetryPolicy, outcome: AttemptOutcome, context: RetryContext): number | undefined {
  if (context.retried >= policy.retries) return undefined;
  if (!retryable(policy, outcome, context.idempotent)) return undefined;
  const asked = outcome.kind === 'response' ? serverDelay(outcome.headers, context.now, outcome.status) : undefined;
  const ceiling = Math.min(policy.maxDelay, policy.baseDelay * 2 ** context.retried);
  const backoff = Math.floor(context.random * ceiling);
  if (asked === undefined) return backoff;
  // A rate limit whose window has already ended by our clock (clock skew, or a reset in whole
  // seconds rounded down) would be retried at once, again and again, until the retries run out.
  // Wait at least the reset's granularity, growing as backoff does.
  if (outcome.kind === 'response' && outcome.status === 429 && asked < MIN_RATE_LIMIT_WAIT) {
    return Math.min(policy.maxDelay, Math.max(MIN_RATE_LIMIT_WAIT * 2 ** context.retried, asked) + backoff);
  }
  return Math.min(asked, policy.maxDelay);
}

/** The shortest wait after a 429: `X-RateLimit-Reset` counts whole seconds. */
export const MIN_RATE_LIMIT_WAIT = 1000;

/** Checks a caller's partial policy once, at the boundary, naming the bad value. */
export function resolveRetryPolicy(options: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options };
  for (const key of ['retries', 'baseDelay', 'maxDelay'] as const) {
    const value = policy[key];
    if (!Number.isInteger(value) || value < 0) {
      throw new ClientError(
        'invalid-option',
        `retry option \`${key}\` must be a whole number of at least 0, got ${String(value)} (${typeof value})`,
      );
    }
  }
  return policy;
}

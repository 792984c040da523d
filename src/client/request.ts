import { STATUS_CODES } from 'node:http';
import type PQueue from 'p-queue';
import { ApiError, ConnectionError, redact } from './errors.js';
import { IDEMPOTENT_METHODS, retryDelay, serverDelay, type RetryPolicy } from './retry.js';
import type { ApiRequest, RawResponse, Send } from './transport.js';

/**
 * Every call of the client goes through {@link createRequest}: the transport (transport.ts) at
 * the bottom, then the queue, then retries, then the mapping of answers to values or errors. Each
 * behaviour is a wrapper around `Send`, as undici composes its interceptors.
 */

/** The clock and dice the retry wrapper uses; tests replace them to assert delays, not timings. */
export interface RetryTiming {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const systemTiming: RetryTiming = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
};

/** Every attempt waits for a slot in the client's queue; a backoff wait holds no slot. */
export function withQueue(send: Send, queue: PQueue): Send {
  return (request) => queue.add(() => send(request), { throwOnTimeout: true });
}

/** The `code` of a transport error or of its `cause` chain (undici wraps some system errors). */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return errorCode((error as { cause?: unknown }).cause);
}

/** A request that may be sent twice: by its method, or because the caller said so. */
export const isIdempotent = (request: ApiRequest) => request.idempotent === true || IDEMPOTENT_METHODS.includes(request.method);

/** Retries what the policy says may be retried; answers of any status come back as they are. */
export function withRetry(send: Send, policy: RetryPolicy, timing: RetryTiming): Send {
  return async (request) => {
    const idempotent = isIdempotent(request);
    for (let retried = 0; ; retried += 1) {
      let answer: RawResponse;
      try {
        answer = await send(request);
      } catch (error) {
        const delay = retryDelay(
          policy,
          { kind: 'error', code: errorCode(error) },
          { retried, idempotent, now: timing.now(), random: timing.random() },
        );
        if (delay === undefined) throw error;
        await timing.sleep(delay);
        continue;
      }
      const outcome = { kind: 'response' as const, status: answer.status, headers: answer.headers };
      const delay = retryDelay(policy, outcome, { retried, idempotent, now: timing.now(), random: timing.random() });
      if (delay === undefined) return answer;
      await timing.sleep(delay);
    }
  };
}

/** `GET /v1/spaces/abc?limit=1000`; an absolute URL (a download) without its query, which may be signed. */
export function describe(request: ApiRequest): string {
  if (/^https?:\/\//i.test(request.path)) {
    const url = new URL(request.path);
    return `${request.method} ${url.origin}${url.pathname}`;
  }
  const query = Object.entries(request.query ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return `${request.method} ${request.path}${query ? `?${query}` : ''}`;
}

/** The server's `error.message`, else the status text (the body of a proxy's error page is not for people). */
function failureMessage(answer: RawResponse): string {
  try {
    const parsed = JSON.parse(Buffer.from(answer.body).toString('utf8')) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string' && parsed.error.message.length > 0) return parsed.error.message;
  } catch {
    // not JSON: fall through to the status text
  }
  return STATUS_CODES[answer.status] ?? `HTTP ${answer.status}`;
}

export type Request = <T>(request: ApiRequest) => Promise<T>;

/**
 * The one request function: sends through `send` (queue and retries already wrapped around it),
 * returns the parsed JSON (undefined for an empty body) or the bytes, and throws
 * {@link ApiError} for a failure status and {@link ConnectionError} when no answer came.
 * No message it throws contains `token`.
 */
export function createRequest(send: Send, token: string, now: () => number = Date.now): Request {
  return async <T>(request: ApiRequest): Promise<T> => {
    let answer: RawResponse;
    try {
      answer = await send(request);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      throw new ConnectionError(describe(request), errorCode(error), redact(text, token), error);
    }
    if (answer.status >= 400) {
      const retryAfter = serverDelay(answer.headers, now(), answer.status);
      throw new ApiError(answer.status, redact(failureMessage(answer), token), {
        request: describe(request),
        ...(retryAfter !== undefined ? { retryAfter } : {}),
      });
    }
    if (request.response === 'bytes') return answer.body as T;
    if (answer.body.length === 0) return undefined as T;
    try {
      return JSON.parse(Buffer.from(answer.body).toString('utf8')) as T;
    } catch {
      throw new ApiError(answer.status, `the answer to ${describe(request)} is not JSON`, { request: describe(request) });
    }
  };
}

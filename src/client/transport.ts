import { Agent, interceptors, type Dispatcher } from 'undici';
import { ClientError } from './errors.js';
import type { HeaderMap } from './retry.js';

/** One HTTP request as the client's single path describes it. */
export interface ApiRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `/v1/...` under the base URL, or an absolute URL (a file's `downloadURL`). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** A POST or PATCH that is safe to send twice; such a request is retried like a GET. */
  idempotent?: boolean;
  /** `json` (the default) parses the answer; `bytes` returns it as it came. */
  response?: 'json' | 'bytes';
}

/** An answer of any status, body read in full so the connection goes back to the pool. */
export interface RawResponse {
  status: number;
  headers: HeaderMap;
  body: Uint8Array;
}

export type Send = (request: ApiRequest) => Promise<RawResponse>;

/** The API root: `http://host:port` or `https://api.gitbook.com`, a trailing `/v1` removed. */
export function parseBaseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ClientError('invalid-option', `client option \`baseUrl\` must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientError('invalid-option', `client option \`baseUrl\` must be an http(s) URL, got "${url.protocol}" in "${value}"`);
  }
  // Credentials in a URL end up in logs; the token has its own option.
  if (url.username || url.password)
    throw new ClientError('invalid-option', 'client option `baseUrl` must not hold a user name or password; pass the token as `token`');
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  url.search = '';
  url.hash = '';
  return url;
}

/** The absolute URL of a request. */
export function requestUrl(base: URL, request: ApiRequest): URL {
  const url = /^https?:\/\//i.test(request.path)
    ? new URL(request.path)
    : new URL(base.pathname.replace(/\/$/, '') + request.path, base.origin);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url;
}

/**
 * The default dispatcher: a keep-alive Agent that follows redirects (a file's download URL may
 * redirect to storage). undici's redirect handler drops `Authorization` when the origin changes.
 */
export function createDispatcher(): { dispatcher: Dispatcher; close: () => Promise<void> } {
  const agent = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connect: { timeout: 10_000 } });
  return { dispatcher: agent.compose(interceptors.redirect({ maxRedirections: 5 })), close: () => agent.close() };
}

/**
 * The bottom of the stack: one attempt over undici. The token is sent only to the API's own
 * origin, never to another host a `downloadURL` names.
 */
export function createTransport(options: { base: URL; token: string; dispatcher: Dispatcher; userAgent: string }): Send {
  const { base, token, dispatcher, userAgent } = options;
  return async (request) => {
    const url = requestUrl(base, request);
    const headers: Record<string, string> = { 'user-agent': userAgent, accept: request.response === 'bytes' ? '*/*' : 'application/json' };
    if (url.origin === base.origin) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] = 'application/json';
    }
    const answer = await dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: request.method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const bytes = new Uint8Array(await answer.body.arrayBuffer());
    return { status: answer.statusCode, headers: answer.headers, body: bytes };
  };
}

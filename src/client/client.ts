import type { Dispatcher } from 'undici';
import { ClientError } from './errors.js';
import { withExtensions } from './extensions.js';
import { followEventStream, type EventStreamOptions } from './event-stream.js';
import { withRateBudget } from './rate-budget.js';
import { createQueue } from './queue.js';
import { createRequest, systemTiming, withQueue, withRetry, type Request, type RetryTiming } from './request.js';
import { resolveRetryPolicy, type RetryPolicy } from './retry.js';
import { createDispatcher, createTransport, parseBaseUrl, type Send } from './transport.js';
import { changeRequestsResource } from './resources/change-requests.js';
import { commentsResource } from './resources/comments.js';
import { contentWriteResource } from './resources/content-write.js';
import { filesResource } from './resources/files.js';
import { orgsResource } from './resources/orgs.js';
import { pagesResource, type Capabilities } from './resources/pages.js';
import { revisionsResource } from './resources/revisions.js';
import { reusableContentsResource } from './resources/reusable-contents.js';
import { spacesResource } from './resources/spaces.js';
import { userResource } from './resources/user.js';

export interface ClientOptions {
  /** The API root, e.g. `http://127.0.0.1:8080` or `https://api.gitbook.com` (a trailing `/v1` is accepted). */
  baseUrl: string;
  /** Bearer token; sent to the API's origin only and never written into an error message. */
  token: string;
  /** Requests in flight at once. @default 8 */
  concurrency?: number;
  /** Most requests started per second. @default no cap */
  requestsPerSecond?: number;
  /** Retries per request (shorthand for `retry.retries`). @default 5 */
  retries?: number;
  /** The rest of the retry policy (retry.ts, `DEFAULT_RETRY_POLICY`). */
  retry?: Partial<RetryPolicy>;
  /** An undici dispatcher to send through (a proxy agent, a mock); the client does not close it. @default a keep-alive Agent */
  dispatcher?: Dispatcher;
  /** @default `docsync` */
  userAgent?: string;
  /** Clock, sleep and dice of the retry wrapper; tests replace them. */
  timing?: Partial<RetryTiming>;
}

export interface ClientStats {
  /** HTTP requests sent, retries included. */
  requests: number;
  /** Of those, retries. */
  retries: number;
}

function checkToken(token: unknown): string {
  if (typeof token !== 'string' || token.length === 0)
    throw new ClientError('invalid-option', 'client option `token` must be a non-empty string');
  // A newline would let the token end the header; say so without echoing it.
  if ([...token].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f))
    throw new ClientError('invalid-option', 'client option `token` must not contain spaces or control characters');
  return token;
}

/**
 * A typed client of the API. Every call goes through one request function (request.ts), in one
 * queue per client (bounded concurrency, optional requests-per-second cap), with retries on
 * 429, 502, 503, 504 and connection resets as the policy in retry.ts says. Call `close()` when
 * done so the keep-alive sockets do not hold the process open.
 */
export function createClient(options: ClientOptions) {
  const base = parseBaseUrl(options.baseUrl);
  const token = checkToken(options.token);
  const policy = resolveRetryPolicy({ ...options.retry, ...(options.retries !== undefined ? { retries: options.retries } : {}) });
  const timing = { ...systemTiming, ...options.timing };
  const queue = createQueue({ concurrency: options.concurrency, requestsPerSecond: options.requestsPerSecond });
  const owned = options.dispatcher ? undefined : createDispatcher();
  const dispatcher = options.dispatcher ?? owned!.dispatcher;

  const stats: ClientStats = { requests: 0, retries: 0 };
  const transport = createTransport({ base, token, dispatcher, userAgent: options.userAgent ?? 'docsync' });
  const counted: Send = (req) => {
    stats.requests += 1;
    return transport(req);
  };
  const capabilities: Capabilities = { markdownListing: undefined, extensions: new Set() };
  // Innermost, so every attempt is seen, a retried one too.
  const observed = withExtensions(counted, base, capabilities.extensions);
  const budgeted = withRateBudget(observed, queue, timing, policy.maxDelay);
  const retried = withRetry(withQueue(budgeted, queue), policy, {
    ...timing,
    sleep: (ms) => {
      stats.retries += 1;
      return timing.sleep(ms);
    },
  });
  const request: Request = createRequest(retried, token, timing.now);
  const pages = pagesResource(request, capabilities);
  const files = filesResource(request);

  return {
    /** The one request function, for endpoints without a resource here. */
    request,
    user: userResource(request),
    orgs: orgsResource(request),
    spaces: spacesResource(request),
    changeRequests: changeRequestsResource(request),
    comments: commentsResource(request),
    content: {
      revision: revisionsResource(request).get,
      pages: pages.pages,
      page: pages.page,
      files: files.list,
      file: files.get,
      download: files.download,
      reusableContent: reusableContentsResource(request).get,
      write: contentWriteResource(request).write,
    },
    revisions: revisionsResource(request),
    /**
     * Follows a space's event stream (only on a server advertising `space-events`, see
     * `capabilities.extensions`); outside the queue and the retries (event-stream.ts).
     */
    spaceEvents: (spaceId: string, streamOptions: EventStreamOptions) =>
      followEventStream(
        { base, token, dispatcher, userAgent: options.userAgent ?? 'docsync' },
        `/v1/spaces/${encodeURIComponent(spaceId)}/events`,
        streamOptions,
      ),
    /**
     * Follows an organization's event stream (`GET /v1/orgs/{orgId}/events`): the events of
     * every space of it the caller can read, as `spaceEvents` gives one space's.
     */
    orgEvents: (orgId: string, streamOptions: EventStreamOptions) =>
      followEventStream(
        { base, token, dispatcher, userAgent: options.userAgent ?? 'docsync' },
        `/v1/orgs/${encodeURIComponent(orgId)}/events`,
        streamOptions,
      ),
    /** What the client learnt about the server (resources/pages.ts, `Capabilities`). */
    capabilities,
    stats,
    /** Waits for the queue to drain, then closes the sockets the client opened. */
    async close(): Promise<void> {
      await queue.onIdle();
      await owned?.close();
    },
  };
}

export type Client = ReturnType<typeof createClient>;

import type { Dispatcher } from 'undici';
import type { SpaceEvent, SpaceResetEvent } from '../model/index.js';
import { ApiError, ConnectionError, redact } from './errors.js';
import { requestUrl } from './transport.js';

export interface EventStreamOptions {
  /** Resume after this event (the last one received): the server sends what was missed first. */
  lastEventId?: string;
  /** Called once the server accepted the stream (200), before any event. */
  onOpen?: () => void;
  /** Every event, and `reset` when events after `lastEventId` were purged (read everything again). */
  onEvent: (event: SpaceEvent | SpaceResetEvent) => void;
  /** Ends the stream (the promise then resolves). */
  signal: AbortSignal;
  /**
   * How long the stream may stay silent before it counts as lost: the server sends a heartbeat
   * every 15 s, so a minute of nothing means a dead connection that TCP has not noticed.
   * @default 60000
   */
  idleTimeoutMs?: number;
}

/** One parsed block of a `text/event-stream` body; undefined for a comment or a `retry:` line. */
function parseBlock(block: string): { id?: string; data: string } | undefined {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon === 0) continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? undefined : { ...(id !== undefined ? { id } : {}), data: data.join('\n') };
}

/**
 * Follows a docsync event stream (`GET /v1/spaces/{spaceId}/events`, extension `space-events`,
 * docs/api.md) until `signal` aborts it or the connection ends. Outside the client's queue: a
 * stream lasts for hours and must not hold one of its request slots. Settles when the server
 * ends the stream or the signal aborts it; throws {@link ApiError} for a refusal (404 from a
 * server without the extension) and {@link ConnectionError} when the connection failed or fell
 * silent. Reconnecting (with `lastEventId`, with backoff) is the caller's policy.
 */
export async function followEventStream(
  deps: { base: URL; token: string; dispatcher: Dispatcher; userAgent: string },
  path: string,
  options: EventStreamOptions,
): Promise<void> {
  const url = requestUrl(deps.base, { method: 'GET', path });
  const what = `GET ${path}`;
  const headers: Record<string, string> = {
    'user-agent': deps.userAgent,
    accept: 'text/event-stream',
    authorization: `Bearer ${deps.token}`,
  };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const idle = options.idleTimeoutMs ?? 60_000;
  let answer: Dispatcher.ResponseData;
  try {
    answer = await deps.dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: 'GET',
      headers,
      signal: options.signal,
      bodyTimeout: idle,
      headersTimeout: idle,
    });
  } catch (error) {
    if (options.signal.aborted) return;
    throw new ConnectionError(what, (error as { code?: string }).code, redact((error as Error).message, deps.token), error);
  }
  if (answer.statusCode !== 200) {
    const text = await answer.body.text().catch(() => '');
    let message = `HTTP ${answer.statusCode}`;
    try {
      message = (JSON.parse(text) as { error: { message: string } }).error.message;
    } catch {
      // not the documented error body: the status says enough
    }
    throw new ApiError(answer.statusCode, redact(message, deps.token), { request: what });
  }
  options.onOpen?.();
  let buffer = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of answer.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true }).replace(/\r\n?/g, '\n');
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const parsed = parseBlock(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
        if (parsed) options.onEvent(JSON.parse(parsed.data) as SpaceEvent | SpaceResetEvent);
      }
    }
  } catch (error) {
    if (options.signal.aborted) return;
    throw new ConnectionError(what, (error as { code?: string }).code, redact((error as Error).message, deps.token), error);
  }
}

import { isApiError, type Client, type EventStreamOptions } from '../client/index.js';
import { EVENTS_EXTENSION, type SpaceEvent, type SpaceResetEvent } from '../model/index.js';
import { backoffDelay, type BackoffPolicy } from './backoff.js';

export interface RemoteEventsOptions {
  client: Client;
  /** Whose stream: a space's (`docsync watch`) or an organization's, every space of it (`docsync mirror --watch`). */
  stream: { spaceId: string } | { orgId: string };
  backoff: BackoffPolicy;
  /** The stream is open: the daemon catches up once (what changed before it opened) and stops polling. */
  onConnected: () => void;
  /**
   * Something changed on the platform: the daemon pulls. A `reset` (the server purged events this
   * stream would have resumed from) is handled the same way: a pull compares every followed head
   * with what was last synced, so it reads everything the purged events told of; the stream then
   * resumes after the reset's id.
   */
  onEvent: (event: SpaceEvent | SpaceResetEvent) => void;
  /** The stream is lost: the daemon polls again until it is back. */
  onDisconnected: (reason: string) => void;
}

export interface RemoteEvents {
  /** True while the stream is open: polling is not needed. */
  readonly connected: boolean;
  /** Looks again whether the server offers the stream (its answers to the daemon's requests tell). */
  poke(): void;
  stop(): Promise<void>;
}

/**
 * Follows a space's (or an organization's) event stream on servers that offer it (`space-events` in
 * `x-docsync-extensions`; the hosted API does not, and then this does nothing and the daemon
 * polls). A lost stream is opened again with backoff, resuming after the last event received,
 * and reported so that the daemon polls meanwhile; each (re)opening is reported too, so the
 * daemon pulls once in case something happened while it was away.
 */
export function followRemoteEvents(options: RemoteEventsOptions): RemoteEvents {
  const { client, stream } = options;
  const abort = new AbortController();
  let connected = false;
  let lastEventId: string | undefined;
  let wakeUp: () => void = () => undefined;
  let waitingForOffer = false;
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = ms === Infinity ? undefined : setTimeout(resolve, ms);
      waitingForOffer = ms === Infinity;
      wakeUp = () => {
        clearTimeout(timer);
        waitingForOffer = false;
        resolve();
      };
    });

  const loop = (async () => {
    let failures = 0;
    while (!abort.signal.aborted) {
      if (!client.capabilities.extensions.has(EVENTS_EXTENSION)) {
        await idle(Infinity); // until a poke (an answer of the server was seen) or stop
        continue;
      }
      let reason = 'the server ended the event stream';
      try {
        const follow = (streamOptions: EventStreamOptions) =>
          'orgId' in stream ? client.orgEvents(stream.orgId, streamOptions) : client.spaceEvents(stream.spaceId, streamOptions);
        await follow({
          ...(lastEventId !== undefined ? { lastEventId } : {}),
          signal: abort.signal,
          onOpen: () => {
            connected = true;
            failures = 0;
            options.onConnected();
          },
          onEvent: (event) => {
            lastEventId = event.id;
            options.onEvent(event);
          },
        });
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error);
        // A server that stopped offering the stream (a downgrade): wait until it says it does again.
        if (isApiError(error, 404)) client.capabilities.extensions.delete(EVENTS_EXTENSION);
      }
      if (connected) {
        connected = false;
        if (!abort.signal.aborted) options.onDisconnected(reason);
      }
      if (abort.signal.aborted) break;
      failures += 1;
      await idle(backoffDelay(failures, Math.random(), options.backoff));
    }
  })();

  return {
    get connected() {
      return connected;
    },
    // Only a wait for the offer ends early: a backoff after a failure runs its course.
    poke: () => {
      if (waitingForOffer) wakeUp();
    },
    async stop() {
      abort.abort();
      wakeUp();
      await loop;
    },
  };
}

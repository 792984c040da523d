import { isExpectedError } from '../model/index.js';
import { isMirrored, mirror, mirrorSpace, type MirroredSpace, type MirrorOptions } from '../sync/index.js';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.js';
import { followRemoteEvents } from './remote-events.js';

/** What `docsync mirror --watch` tells its caller, one event per thing that happened. */
export type MirrorWatchEvent =
  | { type: 'started'; dir: string; orgId: string; pid: number; pollMs: number }
  /** How platform changes are noticed now: the organization's event stream, or polling (no stream offered, or it was lost). */
  | { type: 'remote'; mode: 'events' | 'polling'; reason?: string }
  /** One space brought up to date (cloned, pulled or synced), or failed. */
  | ({ type: 'space' } & MirroredSpace)
  /** A pass ended: every space (`all`) or the spaces events named. */
  | { type: 'pass'; all: boolean; spaces: number }
  /** A pass failed as a whole (the server unreachable, a refusal); the next event or poll tries again. */
  | { type: 'error'; message: string }
  | { type: 'stopped'; reason: string };

export interface MirrorWatchOptions extends Omit<MirrorOptions, 'onSpace'> {
  /** How often every space is compared with the platform while the server streams no events. @default 10000 */
  pollMs?: number;
  /** Waits before opening a lost event stream again. @default DEFAULT_BACKOFF */
  backoff?: BackoffPolicy;
  onEvent: (event: MirrorWatchEvent) => void;
}

export interface MirrorWatch {
  /** Finishes the pass in flight, then stops. */
  stop(reason?: string): Promise<void>;
  /** Settles once stopped, asked to or on its own (see `failure`). */
  readonly stopped: Promise<void>;
  /** Why it stopped on its own: a bug, not a refusal or an unreachable server (those are `error` events). */
  readonly failure: Error | undefined;
}

/**
 * Keeps every space of an organization mirrored in `dir` (as `mirror`) for as long as it runs.
 * A first pass over every space; then, where the server offers the organization's event stream
 * (`space-events`), a change of a space (a head moved, a change request opened, merged or
 * archived) pulls that space alone, an event of a space the mirror has no folder for (a new
 * space) makes a pass over every space (which clones it), and each (re)connection makes one in
 * case something happened while the stream was away. Without the stream (the hosted API, or
 * while it is lost) a pass over every space runs every `pollMs`. One pass at a time: events
 * that arrive during a pass are gathered and served by the next one.
 */
export function watchMirror(options: MirrorWatchOptions): MirrorWatch {
  const { client, onEvent } = options;
  const pollMs = options.pollMs ?? 10_000;
  const pending = { all: false, spaces: new Set<string>() };
  let running: Promise<void> | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  let failure: Error | undefined;
  let finish: (reason: string) => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    finish = (reason) => {
      onEvent({ type: 'stopped', reason });
      resolve();
    };
  });
  const mirrorOptions: MirrorOptions = { ...options, onSpace: (result) => onEvent({ type: 'space', ...result }) };

  /** One pass: what `pending` asks for, taken from it. */
  async function pass(): Promise<void> {
    const all = pending.all;
    const spaces = [...pending.spaces];
    pending.all = false;
    pending.spaces.clear();
    if (all) {
      onEvent({ type: 'pass', all: true, spaces: (await mirror(mirrorOptions)).length });
      return;
    }
    for (const spaceId of spaces) {
      if (!(await isMirrored(options.dir, options.orgId, spaceId))) {
        // A space the mirror has not seen: listing every space finds its title and clones it.
        pending.all = true;
        return;
      }
    }
    for (const spaceId of spaces) await mirrorSpace(mirrorOptions, spaceId);
    onEvent({ type: 'pass', all: false, spaces: spaces.length });
  }

  function drain(): void {
    if (running !== undefined || stopping) return;
    running = (async () => {
      while (!stopping && (pending.all || pending.spaces.size > 0)) {
        try {
          await pass();
        } catch (error) {
          if (!isExpectedError(error)) {
            failure = error as Error;
            void stop(`failed: ${failure.message}`);
            return;
          }
          onEvent({ type: 'error', message: (error as Error).message });
        }
        // The server's answers tell whether it offers the stream.
        events.poke();
      }
    })().finally(() => {
      running = undefined;
      // A request that came as the loop ended found it still running: serve it now.
      if (pending.all || pending.spaces.size > 0) drain();
      else armPoll();
    });
  }

  function request(what: 'all' | string): void {
    if (what === 'all') pending.all = true;
    else pending.spaces.add(what);
    drain();
  }

  /** While the stream is not open, the next pass over every space comes `pollMs` after the last one ended. */
  function armPoll(): void {
    clearTimeout(pollTimer);
    pollTimer = undefined;
    if (stopping || events.connected || running !== undefined) return;
    pollTimer = setTimeout(() => request('all'), pollMs);
  }

  const events = followRemoteEvents({
    client,
    stream: { orgId: options.orgId },
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    onConnected: () => {
      clearTimeout(pollTimer);
      onEvent({ type: 'remote', mode: 'events' });
      request('all');
    },
    onEvent: (event) => {
      if (event.type === 'reset') request('all');
      else if (event.type === 'revision' || event.type === 'change-request') request(event.spaceId);
    },
    onDisconnected: (reason) => {
      onEvent({ type: 'remote', mode: 'polling', reason });
      armPoll();
    },
  });

  async function stop(reason = 'stopped'): Promise<void> {
    if (stopping) return stopped;
    stopping = true;
    clearTimeout(pollTimer);
    await events.stop();
    await running;
    finish(reason);
    return stopped;
  }

  onEvent({ type: 'started', dir: options.dir, orgId: options.orgId, pid: process.pid, pollMs });
  request('all');
  return {
    stop,
    stopped,
    get failure() {
      return failure;
    },
  };
}

import { assertNever } from '../../model/index.js';
import { backoffDelay, type BackoffPolicy } from '../backoff.js';

/**
 * When the daemon does what: its timing decisions as a pure state machine. Events (file events,
 * timers, the server's stream, the phases of a cycle as the driver finishes them) go in with the
 * time they happened at and any random draw they need; the next state and the actions the driver
 * performs come out. No I/O, no clock, no randomness here: `daemon.ts` reads those and performs
 * the actions, and test/daemon/scheduler.property.test.ts drives this with random event sequences.
 *
 * Invariants (each checked by those properties):
 * - One cycle at a time: `begin-cycle` is asked for only when no cycle is in flight, and a cycle
 *   is over only when the driver says `cycle-ended` (the workspace lock released).
 * - No cycle begins while saves are settling, not even a poll; a cycle under way when a burst
 *   begins commits nothing (its network part goes on).
 * - Every settled save is handed to a commit: its path, or the whole working tree. A save a
 *   cycle could not take (paused, settling, the file still being written, a failure) waits for
 *   the next, which a timer or the next event starts.
 * - Something to pull (the stream opened, an event on it, a poll without the stream, the retry
 *   after a failure, the first cycle) is pulled by the next cycle that reaches the network.
 * - After a failure the network waits: the `n`-th failure in a row waits `backoffDelay(n)`, and
 *   a cycle before that time commits only. One that reaches the server resets the count.
 * - Once stopping, no cycle begins and every timer is cleared.
 */

/** The timers the daemon keeps; the driver holds one real timer per name. */
export type TimerName = 'poll' | 'head' | 'retry' | 'recheck';

export interface SchedulerOptions {
  /** Quiet time of a burst; a file still being written is looked at again when the committing cycle says, or 10 ms after it. */
  debounceMs: number;
  /** Polls when the server's event stream is not open. */
  pollMs: number;
  /** Reads `.git/HEAD` to notice a branch switch that changed no file. */
  headCheckMs: number;
  backoff: BackoffPolicy;
}

export interface SchedulerState {
  readonly stopping: boolean;
  /** The cycle in flight: whether it was started for a poll. */
  readonly cycle: { readonly poll: boolean } | undefined;
  /** A burst of file events has not settled yet. */
  readonly settling: boolean;
  /** Settled saves not yet handed to a commit. */
  readonly pendingSave: boolean;
  /** Something to pull. The first cycle pulls and pushes what a previous run left. */
  readonly pollDue: boolean;
  /** Paths the settled saves touched; a save-only commit looks at these alone. */
  readonly savedPaths: readonly string[];
  /** The next commit looks at the whole working tree: first cycle, polls, branch switches, after a failure. */
  readonly fullWalk: boolean;
  /** Failed cycles in a row. */
  readonly failures: number;
  /** When the first of them failed. */
  readonly offlineSince: number;
  /** No network part before this time while `failures > 0`. */
  readonly nextTryAt: number;
  /** The server was unreachable (not merely a failed cycle): `online` is said once it answers. */
  readonly offline: boolean;
  readonly streamConnected: boolean;
  /** When each armed timer fires. */
  readonly timers: Readonly<Partial<Record<TimerName, number>>>;
}

export const initialState: SchedulerState = Object.freeze({
  stopping: false,
  cycle: undefined,
  settling: false,
  pendingSave: false,
  pollDue: true,
  savedPaths: [],
  fullWalk: true,
  failures: 0,
  offlineSince: 0,
  nextTryAt: 0,
  offline: false,
  streamConnected: false,
  timers: {},
});

export type SchedulerEvent =
  | { type: 'start'; at: number }
  /** A file event: a burst is settling. */
  | { type: 'file-changed' }
  /** The burst settled; paths relative to the workspace ('' or `../…`: look at everything). */
  | { type: 'saves-settled'; paths: readonly string[] }
  | { type: 'timer-fired'; timer: TimerName; at: number }
  /** `.git/HEAD` changed (a branch switch that may have changed no file). */
  | { type: 'head-moved' }
  | { type: 'stream-connected' }
  | { type: 'stream-event' }
  | { type: 'stream-lost' }
  /** The cycle holds the workspace lock and read the branch; `paused`: git is in the middle of an operation. */
  | { type: 'cycle-began'; at: number; paused: boolean }
  /**
   * The commit is made (or there was nothing to commit); `held`: files still being written, left
   * for later, the first of them due in `recheckInMs` (the quiet time and 10 ms when not said).
   */
  | { type: 'committed'; at: number; held: readonly string[]; recheckInMs?: number }
  /** Pulled and pushed: the server answered. */
  | { type: 'synced'; at: number }
  /** The cycle failed; `outage`: the server could not be reached (else a bug, or a branch moved meanwhile). */
  | { type: 'cycle-failed'; at: number; random: number; outage: boolean; message: string }
  /** The workspace lock is released. */
  | { type: 'cycle-ended' }
  /** The workspace lock could not be taken (another process held it too long), or the workspace is gone. */
  | { type: 'cycle-aborted'; at: number; random: number; reason: 'busy' | 'gone' }
  | { type: 'stop' };

export type SchedulerAction =
  | { type: 'set-timer'; timer: TimerName; delayMs: number }
  | { type: 'clear-timer'; timer: TimerName }
  /** Read `.git/HEAD` and say `head-moved` when it changed. */
  | { type: 'check-head' }
  /** Take the workspace lock, read the branch, see whether git is busy: then `cycle-began`. */
  | { type: 'begin-cycle' }
  /** Commit the working tree's changes at these paths (or all of it): then `committed`. */
  | { type: 'commit'; paths: readonly string[] | 'all' }
  /** Pull (when `pull`) and push what is unpushed: then `synced`. */
  | { type: 'sync'; pull: boolean }
  /** Release the workspace lock: then `cycle-ended`. */
  | { type: 'end-cycle' }
  | { type: 'went-offline'; message: string; failures: number; retryInMs: number; since: number; nextTryAt: number }
  | { type: 'came-online'; afterMs: number };

export interface Step {
  state: SchedulerState;
  actions: SchedulerAction[];
}

/** The actions a cycle's phases ask for: the driver performs them in order, one at a time. */
export const isCyclePhase = (
  action: SchedulerAction,
): action is Extract<SchedulerAction, { type: 'begin-cycle' | 'commit' | 'sync' | 'end-cycle' }> =>
  action.type === 'begin-cycle' || action.type === 'commit' || action.type === 'sync' || action.type === 'end-cycle';

/**
 * How much longer a file must wait before it is committed (0: it need not). A file modified less
 * than the quiet time ago may still be being written, its event not yet delivered (a loaded
 * machine). An empty file waits longer (emptyFileWaitMs): an editor, or any program, that saves by
 * truncating and then writing leaves the file empty between the two, and a process descheduled
 * there on a loaded machine can stay longer than the quiet time; committing that moment would push
 * a page with no text. A time stamp far in the future, from another clock, does not hold a file
 * back for ever.
 */
export function writeSettlesInMs(file: { mtimeMs: number; size: number }, now: number, debounceMs: number): number {
  if (file.mtimeMs >= now + 1_000) return 0;
  const quietMs = file.size === 0 ? emptyFileWaitMs(debounceMs) : debounceMs;
  return Math.max(0, file.mtimeMs + quietMs - now);
}

/** How long a file left empty waits before it is committed: ten quiet times, 2 s at least (a writer emptying a page on purpose waits that much). */
export const emptyFileWaitMs = (debounceMs: number): number => Math.max(10 * debounceMs, 2_000);

const union = (paths: readonly string[], more: readonly string[]): string[] => [...new Set([...paths, ...more])];

/** The next state and the actions for one event. Never mutates `state`. */
export function step(state: SchedulerState, event: SchedulerEvent, options: SchedulerOptions): Step {
  const actions: SchedulerAction[] = [];
  let s: SchedulerState = state;
  const set = (patch: Partial<SchedulerState>) => {
    s = { ...s, ...patch };
  };
  const arm = (timer: TimerName, at: number, delayMs: number) => {
    set({ timers: { ...s.timers, [timer]: at + delayMs } });
    actions.push({ type: 'set-timer', timer, delayMs });
  };
  /** Starts a cycle when one is wanted and may run. */
  const kick = () => {
    if (s.cycle !== undefined || s.stopping || !(s.pendingSave || s.pollDue) || s.settling) return;
    set({ cycle: { poll: s.pollDue }, pendingSave: false, pollDue: false });
    actions.push({ type: 'begin-cycle' });
  };
  /** After the commit: the network part, unless the backoff after a failure still runs. */
  const network = (at: number) => {
    if (s.failures > 0 && at < s.nextTryAt) actions.push({ type: 'end-cycle' });
    else actions.push({ type: 'sync', pull: s.cycle!.poll || s.failures > 0 });
  };
  /** Something to pull: while backing off, the retry timer comes back for it. */
  const pullSoon = () => {
    set({ pollDue: true });
    if (s.failures === 0) kick();
  };

  // Stopping: the cycle in flight finishes; nothing else starts.
  if (s.stopping && !isCycleEvent(event)) return { state, actions };
  switch (event.type) {
    case 'start':
      arm('poll', event.at, options.pollMs);
      arm('head', event.at, options.headCheckMs);
      kick();
      break;
    case 'file-changed':
      set({ settling: true });
      break;
    case 'saves-settled': {
      const inside = event.paths.filter((path) => path !== '' && !path.startsWith('../'));
      set({
        settling: false,
        pendingSave: true,
        savedPaths: union(s.savedPaths, inside),
        fullWalk: s.fullWalk || inside.length < event.paths.length,
      });
      kick();
      break;
    }
    case 'timer-fired': {
      const { [event.timer]: _, ...timers } = s.timers;
      set({ timers });
      switch (event.timer) {
        case 'poll':
          arm('poll', event.at, options.pollMs);
          set({ fullWalk: true });
          if (!s.streamConnected) pullSoon();
          break;
        case 'head':
          arm('head', event.at, options.headCheckMs);
          actions.push({ type: 'check-head' });
          break;
        case 'retry':
          set({ pollDue: true, fullWalk: true });
          kick();
          break;
        case 'recheck':
          set({ pendingSave: true });
          kick();
          break;
        default:
          assertNever(event.timer, 'timer');
      }
      break;
    }
    case 'head-moved':
      set({ pendingSave: true, fullWalk: true });
      kick();
      break;
    case 'stream-connected':
      set({ streamConnected: true });
      pullSoon(); // what changed before the stream opened
      break;
    case 'stream-event':
      pullSoon();
      break;
    case 'stream-lost':
      set({ streamConnected: false });
      break;
    case 'cycle-began':
      // Paused: the saves wait in the working tree for the cycle after the operation.
      if (event.paused) actions.push({ type: 'end-cycle' });
      // A save made since the cycle was asked for waits for its own burst to settle.
      else if (s.settling) network(event.at);
      // A cycle for the platform alone (a stream event): no save to commit, so no walk of the
      // working tree before the pull (5,000 lstat calls in a 5,000-page workspace); a save comes
      // with its own file event, and the pull saves uncommitted edits at the files it writes.
      else if (!s.fullWalk && s.savedPaths.length === 0) network(event.at);
      else {
        actions.push({ type: 'commit', paths: s.fullWalk ? 'all' : s.savedPaths });
        set({ savedPaths: [], fullWalk: false });
      }
      break;
    case 'committed':
      if (event.held.length > 0) {
        set({ savedPaths: union(s.savedPaths, event.held) });
        // The first held file due decides; a later one is looked at again by the cycle that timer starts.
        const delayMs = event.recheckInMs ?? options.debounceMs + 10;
        const armed = s.timers.recheck;
        if ((armed === undefined || event.at + delayMs < armed) && !s.stopping) arm('recheck', event.at, delayMs);
      }
      network(event.at);
      break;
    case 'synced':
      if (s.offline) actions.push({ type: 'came-online', afterMs: event.at - s.offlineSince });
      set({ offline: false, failures: 0 });
      actions.push({ type: 'end-cycle' });
      break;
    case 'cycle-failed': {
      // An outage, a bug, or a branch moved by the user's own git command meanwhile: try again later.
      const failures = s.failures + 1;
      const offlineSince = failures === 1 ? event.at : s.offlineSince;
      const retryInMs = backoffDelay(failures, event.random, options.backoff);
      const nextTryAt = event.at + retryInMs;
      set({ fullWalk: true, failures, offlineSince, nextTryAt, offline: s.offline || event.outage });
      if (event.outage) actions.push({ type: 'went-offline', message: event.message, failures, retryInMs, since: offlineSince, nextTryAt });
      if (!s.stopping) arm('retry', event.at, retryInMs);
      actions.push({ type: 'end-cycle' });
      break;
    }
    case 'cycle-ended':
      set({ cycle: undefined });
      kick();
      break;
    case 'cycle-aborted':
      set({ cycle: undefined });
      // Another process held the sync lock too long: try again later. A workspace gone stops the daemon.
      if (event.reason === 'busy' && !s.stopping) {
        set({ pendingSave: true });
        arm('retry', event.at, backoffDelay(1, event.random, options.backoff));
      }
      break;
    case 'stop':
      for (const timer of Object.keys(s.timers) as TimerName[]) actions.push({ type: 'clear-timer', timer });
      set({ stopping: true, timers: {} });
      break;
    default:
      assertNever(event, 'scheduler event');
  }
  return { state: s, actions };
}

/** Events of the cycle in flight: a stopping daemon lets it finish. */
const isCycleEvent = (event: SchedulerEvent): boolean =>
  event.type === 'cycle-began' ||
  event.type === 'committed' ||
  event.type === 'synced' ||
  event.type === 'cycle-failed' ||
  event.type === 'cycle-ended' ||
  event.type === 'cycle-aborted';

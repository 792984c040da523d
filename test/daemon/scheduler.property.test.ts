import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/daemon/backoff.js';
import {
  emptyFileWaitMs,
  initialState,
  isCyclePhase,
  step,
  writeSettlesInMs,
  type SchedulerAction,
  type SchedulerEvent,
  type SchedulerOptions,
  type SchedulerState,
  type TimerName,
} from '../../src/daemon/scheduler/scheduler.js';

// The daemon's scheduler (src/daemon/scheduler/) driven by random event sequences on a simulated
// clock, with a simulated driver whose cycle phases take random times and fail at random: the
// invariants at the top of scheduler.ts hold at every step, and once saves stop and the server
// answers, every save is committed and pushed and every remote change pulled.

const options: SchedulerOptions = { debounceMs: 300, pollMs: 1_000, headCheckMs: 700, backoff: { initialMs: 100, maxMs: 4_000 } };

type Phase = Extract<SchedulerAction, { type: 'begin-cycle' | 'commit' | 'sync' | 'end-cycle' }>;
type Result = 'ok' | 'outage' | 'bug' | 'paused' | 'busy' | 'hold';
interface Outcome {
  ms: number;
  result: Result;
  random: number;
}
type Command =
  | { kind: 'advance'; ms: number }
  | { kind: 'save'; path: string }
  | { kind: 'settle' }
  | { kind: 'stream'; what: 'connected' | 'event' | 'lost' }
  | { kind: 'head-moved' };

interface Save {
  path: string;
  settledAt: number;
  committedAt?: number;
  pushedAt?: number;
}

/** The scheduler with a driver that performs its actions on a simulated clock. */
class Simulation {
  now = 0;
  state: SchedulerState = initialState;
  readonly timers = new Map<TimerName, number>();
  phase: { action: Phase; due: number; outcome: Outcome; at: number } | undefined;
  inFlight = false;
  burst: Set<string> | undefined;
  stopped = false;
  streamOpen = false;
  /** The next commit holds its first file back, as one still being written. */
  holdOnce = false;
  /** Every phase succeeds (the server is back, git is done) from now on. */
  calm = false;
  readonly saves: Save[] = [];
  /** Remote changes, by when the daemon could know of them; pulled once a pull starts after that. */
  readonly remoteChanges: { at: number; pulledAt?: number }[] = [];
  readonly log: string[] = [];
  #next = 0;
  /** Failures in a row and the time before which the network must wait, as the driver sees them. */
  failures = 0;
  nextTryAt = 0;
  outageSince: number | undefined;
  firstFailureAt = 0;
  commitsAll = 0;
  pulls: number[] = [];

  constructor(readonly outcomes: readonly Outcome[]) {}

  #outcome(): Outcome {
    const outcome = this.outcomes[this.#next++ % this.outcomes.length] ?? { ms: 0, result: 'ok', random: 0 };
    return this.calm ? { ...outcome, result: 'ok' } : outcome;
  }

  dispatch(event: SchedulerEvent): SchedulerAction[] {
    const before = this.state;
    const { state, actions } = step(before, event, options);
    this.log.push(`${this.now} ${JSON.stringify(event)} -> ${JSON.stringify(actions)}`);
    this.state = state;
    if (event.type === 'cycle-failed') {
      this.failures += 1;
      if (this.failures === 1) this.firstFailureAt = event.at;
      if (event.outage) this.outageSince ??= event.at;
      const retry = actions.find((a) => a.type === 'set-timer' && a.timer === 'retry');
      // Backoff grows with the failures in a row (the n-th waits backoffDelay(n)).
      if (!this.stopped)
        expect(retry).toEqual({ type: 'set-timer', timer: 'retry', delayMs: backoffDelay(this.failures, event.random, options.backoff) });
      this.nextTryAt = event.at + backoffDelay(this.failures, event.random, options.backoff);
      expect(actions.some((a) => a.type === 'went-offline')).toBe(event.outage);
    }
    if (event.type === 'cycle-aborted' && event.reason === 'busy' && !this.stopped) {
      expect(actions).toContainEqual({ type: 'set-timer', timer: 'retry', delayMs: backoffDelay(1, event.random, options.backoff) });
    }
    if (event.type === 'synced') {
      // Online is said once, after an outage; the count of failures resets.
      const online = actions.find((a) => a.type === 'came-online');
      expect(online !== undefined).toBe(this.outageSince !== undefined);
      if (online?.type === 'came-online') expect(online.afterMs).toBe(event.at - this.firstFailureAt);
      this.failures = 0;
      this.outageSince = undefined;
    }
    for (const action of actions) this.#perform(action);
    expect(Object.keys(this.state.timers).sort()).toEqual([...this.timers.keys()].sort());
    for (const [timer, due] of this.timers) expect(this.state.timers[timer]).toBe(due);
    return actions;
  }

  #perform(action: SchedulerAction): void {
    if (isCyclePhase(action)) {
      if (action.type === 'begin-cycle') {
        // One cycle at a time; none while saves settle; none once stopping.
        expect(this.inFlight, 'a second cycle').toBe(false);
        expect(this.burst, 'a cycle while saves settle').toBeUndefined();
        expect(this.stopped, 'a cycle after stop').toBe(false);
        this.inFlight = true;
      } else {
        expect(this.inFlight, `${action.type} outside a cycle`).toBe(true);
      }
      expect(this.phase, 'two phases at once').toBeUndefined();
      if (action.type === 'commit') {
        expect(this.burst, 'a commit while saves settle').toBeUndefined();
        if (action.paths === 'all') this.commitsAll += 1;
      }
      if (action.type === 'sync') {
        // The network waits for the backoff after a failure.
        expect(this.failures === 0 || this.now >= this.nextTryAt, 'the network before the backoff ran out').toBe(true);
        if (this.failures > 0) expect(action.pull).toBe(true);
      }
      const outcome = action.type === 'end-cycle' ? { ms: 0, result: 'ok' as const, random: 0 } : this.#outcome();
      this.phase = { action, due: this.now + outcome.ms, outcome, at: this.now };
      return;
    }
    switch (action.type) {
      case 'set-timer':
        expect(this.stopped, 'a timer after stop').toBe(false);
        this.timers.set(action.timer, this.now + action.delayMs);
        break;
      case 'clear-timer':
        this.timers.delete(action.timer);
        break;
      default:
        break;
    }
  }

  /** The driver finishes the phase in flight. */
  #complete(): void {
    const { action, outcome, at } = this.phase!;
    this.phase = undefined;
    const failed = outcome.result === 'outage' || outcome.result === 'bug';
    const fail = () =>
      this.dispatch({ type: 'cycle-failed', at: this.now, random: outcome.random, outage: outcome.result === 'outage', message: 'down' });
    switch (action.type) {
      case 'begin-cycle':
        if (outcome.result === 'busy') {
          this.inFlight = false;
          this.dispatch({ type: 'cycle-aborted', at: this.now, random: outcome.random, reason: 'busy' });
        } else this.dispatch({ type: 'cycle-began', at: this.now, paused: outcome.result === 'paused' });
        break;
      case 'commit': {
        if (failed) return void fail();
        const taken = this.saves.filter(
          (s) => s.committedAt === undefined && s.settledAt <= at && (action.paths === 'all' || action.paths.includes(s.path)),
        );
        // A file still being written is left for the next cycle.
        const hold = outcome.result === 'hold' || this.holdOnce;
        const held = hold && taken.length > 0 && taken[0]!.path !== '' ? [taken[0]!.path] : [];
        if (held.length > 0) this.holdOnce = false;
        for (const s of taken) if (!held.includes(s.path)) s.committedAt = this.now;
        // The driver says when the first held file is due, or (odd draws) leaves it to the quiet time.
        const recheck = held.length > 0 && outcome.ms % 2 === 0 ? { recheckInMs: 2 * outcome.ms + 10 } : {};
        this.dispatch({ type: 'committed', at: this.now, held, ...recheck });
        break;
      }
      case 'sync':
        if (failed) return void fail();
        for (const s of this.saves) if (s.committedAt !== undefined && s.committedAt <= at) s.pushedAt ??= this.now;
        if (action.pull) {
          this.pulls.push(at);
          for (const change of this.remoteChanges) if (change.at <= at) change.pulledAt ??= this.now;
        }
        this.dispatch({ type: 'synced', at: this.now });
        break;
      case 'end-cycle':
        this.inFlight = false;
        this.dispatch({ type: 'cycle-ended' });
        break;
    }
  }

  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const timer = [...this.timers].sort((a, b) => a[1] - b[1])[0];
      const phaseDue = this.phase?.due ?? Infinity;
      const timerDue = timer?.[1] ?? Infinity;
      if (Math.min(phaseDue, timerDue) > end) break;
      if (phaseDue <= timerDue) {
        this.now = phaseDue;
        this.#complete();
      } else {
        this.now = timerDue;
        this.timers.delete(timer![0]);
        this.dispatch({ type: 'timer-fired', timer: timer![0], at: this.now });
      }
    }
    this.now = end;
  }

  run(command: Command): void {
    switch (command.kind) {
      case 'advance':
        return this.advance(command.ms);
      case 'save':
        if (this.stopped) return; // the driver hears no file event once stopping
        this.burst ??= new Set();
        this.burst.add(command.path);
        this.dispatch({ type: 'file-changed' });
        return;
      case 'settle':
        return this.settle();
      case 'stream':
        if (command.what === 'connected' && !this.streamOpen) {
          this.streamOpen = true;
          this.remoteChanges.push({ at: this.now });
          this.dispatch({ type: 'stream-connected' });
        } else if (command.what === 'event' && this.streamOpen) {
          this.remoteChanges.push({ at: this.now });
          this.dispatch({ type: 'stream-event' });
        } else if (command.what === 'lost' && this.streamOpen) {
          this.streamOpen = false;
          this.dispatch({ type: 'stream-lost' });
        }
        return;
      case 'head-moved':
        this.dispatch({ type: 'head-moved' });
        return;
    }
  }

  settle(): void {
    if (this.burst === undefined) return;
    const paths = [...this.burst].sort();
    this.burst = undefined;
    for (const path of paths) this.saves.push({ path, settledAt: this.now });
    this.dispatch({ type: 'saves-settled', paths });
  }
}

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3_000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('save' as const), path: fc.constantFrom('a.md', 'b.md', 'guide/c.md', '') }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'settle' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('stream' as const),
      what: fc.constantFrom('connected' as const, 'event' as const, 'lost' as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'head-moved' as const }) },
);
const outcomeArb: fc.Arbitrary<Outcome> = fc.record({
  ms: fc.integer({ min: 0, max: 1_500 }),
  result: fc.constantFrom<Result>('ok', 'ok', 'ok', 'outage', 'bug', 'paused', 'busy', 'hold'),
  random: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
});

/** Starts, runs the commands, then lets saves stop and the server answer for a while. */
function simulate(commands: readonly Command[], outcomes: readonly Outcome[]): Simulation {
  const sim = new Simulation(outcomes);
  sim.dispatch({ type: 'start', at: sim.now });
  for (const command of commands) sim.run(command);
  // Saves stop; the server answers; git is done. Something changes on the platform now: the
  // stream tells, or (no stream) only a poll can find it.
  sim.settle();
  sim.calm = true;
  sim.remoteChanges.push({ at: sim.now });
  if (sim.streamOpen) sim.dispatch({ type: 'stream-event' });
  sim.advance(30_000);
  return sim;
}

describe('the daemon scheduler', () => {
  it('keeps its invariants over random event sequences, and once saves stop pushes every save and pulls every remote change', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 60 }), fc.array(outcomeArb, { minLength: 1, maxLength: 30 }), (commands, outcomes) => {
        const sim = simulate(commands, outcomes);
        const trail = () => sim.log.slice(-40).join('\n');
        for (const save of sim.saves) {
          expect(save.committedAt, `save of '${save.path}' at ${save.settledAt} never committed\n${trail()}`).toBeDefined();
          expect(save.pushedAt, `save of '${save.path}' at ${save.settledAt} never pushed\n${trail()}`).toBeDefined();
        }
        for (const change of sim.remoteChanges) {
          expect(change.pulledAt, `remote change at ${change.at} never pulled\n${trail()}`).toBeDefined();
        }
        expect(sim.failures).toBe(0);
        expect(sim.state.offline).toBe(false);
      }),
    );
  });

  it('once stopped, lets the cycle in flight finish, starts nothing and keeps no timer', () => {
    fc.assert(
      fc.property(
        fc.array(commandArb, { maxLength: 40 }),
        fc.array(outcomeArb, { minLength: 1, maxLength: 20 }),
        fc.array(commandArb, { maxLength: 20 }),
        (commands, outcomes, after) => {
          const sim = new Simulation(outcomes);
          sim.dispatch({ type: 'start', at: 0 });
          for (const command of commands) sim.run(command);
          const actions = sim.dispatch({ type: 'stop' });
          sim.stopped = true;
          expect(actions.every((a) => a.type === 'clear-timer')).toBe(true);
          expect(sim.timers.size).toBe(0);
          for (const command of after) sim.run(command);
          sim.settle();
          sim.advance(60_000);
          expect(sim.inFlight).toBe(false);
          expect(sim.timers.size).toBe(0);
          expect(sim.state.stopping).toBe(true);
        },
      ),
    );
  });

  it('polls while the event stream is closed, and pulls only on its events while it is open', () => {
    const sim = new Simulation([{ ms: 10, result: 'ok', random: 0 }]);
    sim.dispatch({ type: 'start', at: 0 });
    sim.advance(10_500);
    // The first cycle, then one a poll.
    expect(sim.pulls).toHaveLength(11);
    sim.run({ kind: 'stream', what: 'connected' });
    sim.advance(10_000);
    expect(sim.pulls).toHaveLength(12); // the catch-up when the stream opened
    sim.run({ kind: 'stream', what: 'event' });
    sim.advance(100);
    expect(sim.pulls).toHaveLength(13);
    sim.run({ kind: 'stream', what: 'lost' });
    sim.advance(5_000);
    expect(sim.pulls).toHaveLength(18);
  });

  it('commits a burst once it has settled, with the paths it touched, and the whole tree after a poll', () => {
    const sim = new Simulation([{ ms: 10, result: 'ok', random: 0 }]);
    const commits: (readonly string[] | 'all')[] = [];
    const original = sim.dispatch.bind(sim);
    sim.dispatch = (event) => {
      const actions = original(event);
      for (const action of actions) if (action.type === 'commit') commits.push(action.paths);
      return actions;
    };
    sim.dispatch({ type: 'start', at: 0 });
    sim.advance(100);
    expect(commits).toEqual(['all']); // the first cycle looks at everything
    sim.run({ kind: 'save', path: 'a.md' });
    sim.advance(2_000); // two polls come: neither starts a cycle while the burst settles
    expect(commits).toEqual(['all']);
    sim.settle();
    sim.advance(50);
    expect(commits).toEqual(['all', 'all']); // the polls asked for a whole walk
    sim.run({ kind: 'save', path: 'b.md' });
    sim.run({ kind: 'save', path: 'a.md' });
    sim.settle();
    sim.advance(100);
    expect(commits).toEqual(['all', 'all', ['a.md', 'b.md']]);
    sim.advance(1_000);
    expect(commits.at(-1)).toBe('all'); // a poll
  });

  it('pulls for a stream event without walking the working tree, and walks it whole after a poll', () => {
    const sim = new Simulation([{ ms: 10, result: 'ok', random: 0 }]);
    const commits: (readonly string[] | 'all')[] = [];
    const original = sim.dispatch.bind(sim);
    sim.dispatch = (event) => {
      const actions = original(event);
      for (const action of actions) if (action.type === 'commit') commits.push(action.paths);
      return actions;
    };
    sim.dispatch({ type: 'start', at: 0 });
    sim.advance(100);
    sim.run({ kind: 'stream', what: 'connected' });
    sim.advance(100);
    const pulls = sim.pulls.length;
    sim.run({ kind: 'stream', what: 'event' });
    sim.advance(100);
    expect(sim.pulls).toHaveLength(pulls + 1);
    expect(commits).toEqual(['all']); // the first cycle's only
    sim.advance(10_000); // a poll: the stream is open, so it pulls nothing, but the next cycle looks at everything
    sim.run({ kind: 'stream', what: 'event' });
    sim.advance(100);
    expect(commits).toEqual(['all', 'all']);
    sim.run({ kind: 'save', path: 'a.md' });
    sim.settle();
    sim.advance(100);
    expect(commits).toEqual(['all', 'all', ['a.md']]);
  });

  it('looks again at a file held back as still being written once the quiet time is over, with no poll to come', () => {
    const sim = new Simulation([{ ms: 5, result: 'ok', random: 0 }]);
    sim.dispatch({ type: 'start', at: 0 });
    sim.run({ kind: 'stream', what: 'connected' });
    sim.advance(1_000);
    sim.holdOnce = true;
    sim.run({ kind: 'save', path: 'a.md' });
    sim.settle();
    sim.advance(200);
    expect(sim.holdOnce).toBe(false);
    expect(sim.saves[0]!.committedAt).toBeUndefined();
    sim.advance(options.debounceMs + 10);
    expect(sim.saves[0]!.committedAt).toBeDefined();
    sim.advance(100);
    expect(sim.saves[0]!.pushedAt).toBeDefined();
  });

  it('holds a file modified within the quiet time, an empty one for ten quiet times (2 s at least), and none stamped far ahead', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 5_000 }),
        fc.integer({ min: -20_000, max: 5_000 }),
        fc.nat(100_000),
        (debounceMs, age, size) => {
          const now = 1_000_000;
          const quietMs = size === 0 ? Math.max(10 * debounceMs, 2_000) : debounceMs;
          const waitMs = writeSettlesInMs({ mtimeMs: now - age, size }, now, debounceMs);
          expect(waitMs).toBe(age > -1_000 && age < quietMs ? quietMs - age : 0);
        },
      ),
    );
    expect(emptyFileWaitMs(300)).toBe(3_000);
    expect(emptyFileWaitMs(100)).toBe(2_000);
  });

  it('looks again at a held file when the cycle says it is due, sooner when a later cycle holds one due earlier', () => {
    // Three cycles in a row, each holding a file back, at 1,000, 1,500 and 1,600 ms.
    let state: SchedulerState = { ...initialState, cycle: { poll: false } };
    const rechecks: (number | undefined)[] = [];
    for (const [at, path, recheckInMs] of [
      [1_000, 'empty.md', 2_000],
      [1_500, 'late.md', 5_000],
      [1_600, 'soon.md', 100],
    ] as const) {
      const next = step({ ...state, cycle: { poll: false } }, { type: 'committed', at, held: [path], recheckInMs }, options);
      state = next.state;
      const timer = next.actions.find((a) => a.type === 'set-timer' && a.timer === 'recheck');
      rechecks.push(timer?.type === 'set-timer' ? at + timer.delayMs : undefined);
    }
    // The first is armed for 3,000; the second, due later, leaves it; the third, due sooner, moves it to 1,700.
    expect(rechecks).toEqual([3_000, undefined, 1_700]);
    expect(state.timers.recheck).toBe(1_700);
    expect(state.savedPaths).toEqual(['empty.md', 'late.md', 'soon.md']);
    // Without a time from the cycle, the quiet time and 10 ms.
    const plain = step({ ...initialState, cycle: { poll: false } }, { type: 'committed', at: 0, held: ['a.md'] }, options);
    expect(plain.actions).toContainEqual({ type: 'set-timer', timer: 'recheck', delayMs: options.debounceMs + 10 });
  });

  it('backs off after failures in a row and resets once the server answers', () => {
    // Every phase fails: a cycle begins, and its commit fails.
    const sim = new Simulation([{ ms: 0, result: 'outage', random: 0 }]);
    const retries: number[] = [];
    const original = sim.dispatch.bind(sim);
    sim.dispatch = (event) => {
      const actions = original(event);
      for (const a of actions) if (a.type === 'set-timer' && a.timer === 'retry') retries.push(a.delayMs);
      return actions;
    };
    sim.dispatch({ type: 'start', at: 0 });
    sim.advance(20_000);
    expect(retries.slice(0, 7)).toEqual([100, 200, 400, 800, 1_600, 3_200, 4_000]);
    expect(Math.max(...retries)).toBeLessThanOrEqual(4_000);
    sim.calm = true;
    sim.advance(10_000);
    expect(sim.failures).toBe(0);
    const count = retries.length;
    sim.calm = false;
    sim.advance(10_000);
    expect(retries[count]).toBe(100); // the count started again
  });
});

import { resolve } from 'node:path';
import { startDaemon, type Daemon, type DaemonEvent } from '../../daemon/index.js';
import { EXIT, ExitError } from '../exit.js';
import { daemonLine } from './daemon-lines.js';
import { clientForWorkspace } from './sync-client.js';

export interface WatchCommandOptions {
  debounce: string;
  poll: string;
  json?: boolean;
}

function parseNumber(value: string, option: string, min: number): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < min) throw new ExitError(`${option} must be a number >= ${min}, got "${value}"`, EXIT.usage);
  return number;
}

/** `--debounce` (ms) and `--poll` (seconds) as the daemon's milliseconds; usage errors when malformed. */
export function daemonTimings(options: { debounce: string; poll: string }): { debounceMs: number; pollMs: number } {
  return { debounceMs: parseNumber(options.debounce, '--debounce', 0), pollMs: parseNumber(options.poll, '--poll', 0.1) * 1000 };
}

/** How the daemon's events reach a terminal (time and one line) or a machine (one JSON line). */
export function eventPrinter(json: boolean): (event: DaemonEvent) => void {
  return (event) => {
    if (json) {
      console.log(JSON.stringify({ at: new Date().toISOString(), ...event }));
      return;
    }
    const line = daemonLine(event);
    if (line === undefined) return;
    const time = new Date().toTimeString().slice(0, 8);
    for (const part of line.split('\n')) console.log(`${time} ${part}`);
  };
}

/**
 * Runs the daemon until the first SIGINT or SIGTERM (then stops it) or until it stops on its own,
 * which is a failure. A second signal while it finishes exits at once: the push journal makes an
 * interrupted push safe to resume.
 */
export async function runUntilSignal(daemon: Daemon): Promise<void> {
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const signalled = new Promise<void>((done, fail) => {
    onSignal = (signal) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      daemon.stop(signal).then(done, fail);
    };
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await Promise.race([signalled, daemon.stopped]);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (daemon.failure) throw new ExitError(`stopped: ${daemon.failure.message}`);
}

/**
 * Holds SIGINT and SIGTERM while a setup step runs (a clone, a first publish), so that Ctrl-C
 * then ends the command cleanly after the step instead of killing it half-way; a second signal
 * exits at once.
 */
export function holdSignals(): { received(): string | undefined; release(): void } {
  let received: string | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received !== undefined) process.exit(signal === 'SIGINT' ? 130 : 143);
    received = signal;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    received: () => received,
    release() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * Runs the daemon started while `held` held the signals until a signal: one held meanwhile stops
 * it at once. runUntilSignal listens before the hold lets go, so SIGINT and SIGTERM always have a
 * listener: node closes a signal's watcher with its last listener, and a signal caught by a
 * watcher closed before the event loop dispatched it is lost (`docsync up` then ran on after
 * Ctrl-C), while one that comes with no watcher at all kills the process where it stands (`docsync
 * watch` killed by the SIGTERM that came right after its `started` line).
 */
export async function handOver(held: ReturnType<typeof holdSignals>, daemon: Daemon): Promise<void> {
  const running = runUntilSignal(daemon);
  held.release();
  const signal = held.received();
  if (signal !== undefined) await daemon.stop(signal);
  await running;
}

/**
 * Marks this process as the background process it is for git (`git --no-optional-locks` does the
 * same for its children): its walks of the working tree take no `index.lock` just to store new
 * stat data, so a writer's `git checkout` or `git commit` in another shell never fails on a lock
 * the daemon holds for that (docs/daemon.md). A value the writer set is kept.
 */
export function asBackgroundGitProcess(): void {
  process.env.GIT_OPTIONAL_LOCKS ??= '0';
}

/** `docsync watch [dir]`: the daemon, until SIGINT or SIGTERM. */
export async function watchCommand(dir: string | undefined, options: WatchCommandOptions): Promise<void> {
  asBackgroundGitProcess();
  const { debounceMs, pollMs } = daemonTimings(options);
  const workspace = resolve(dir ?? '.');
  const held = holdSignals();
  // Few retries per request: the daemon's own backoff takes over, and saves are not held up meanwhile.
  const client = await clientForWorkspace(workspace, { retries: 2 });
  try {
    const daemon = await startDaemon({ client, dir: workspace, debounceMs, pollMs, onEvent: eventPrinter(options.json === true) });
    await handOver(held, daemon);
  } finally {
    held.release();
    await client.close();
  }
}

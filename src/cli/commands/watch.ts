import { resolve } from 'node:path';
import { startDaemon, type DaemonEvent } from '../../daemon/index.js';
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
 * Resolves on the first SIGINT or SIGTERM, after `stop` has finished. A second signal while it
 * finishes exits at once: the push journal makes an interrupted push safe to resume.
 */
export function untilSignal(stop: (signal: string) => Promise<void>): Promise<void> {
  return new Promise<void>((done, fail) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      stop(signal).then(done, fail);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** `docsync watch [dir]`: the daemon, until SIGINT or SIGTERM. */
export async function watchCommand(dir: string | undefined, options: WatchCommandOptions): Promise<void> {
  const debounceMs = parseNumber(options.debounce, '--debounce', 0);
  const pollMs = parseNumber(options.poll, '--poll', 0.1) * 1000;
  const workspace = resolve(dir ?? '.');
  // Few retries per request: the daemon's own backoff takes over, and saves are not held up meanwhile.
  const client = await clientForWorkspace(workspace, { retries: 2 });
  try {
    const daemon = await startDaemon({ client, dir: workspace, debounceMs, pollMs, onEvent: eventPrinter(options.json === true) }).catch((error: unknown) => {
      if (error instanceof Error && error.name === 'DaemonLockedError') throw new ExitError(error.message, EXIT.refused);
      throw error;
    });
    await untilSignal((signal) => daemon.stop(signal));
  } finally {
    await client.close();
  }
}

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readDaemonStatus } from '../../src/daemon/index.js';
import { spawnCli, type CliProcess } from '../cli/spawn-cli.js';
import { EVENT_WAIT_MS } from '../helpers/patience.js';

// No vitest here: `npm run bench` runs the daemon with this too.

/** A `docsync watch --json` child process, read event by event. */
export interface WatchProcess extends CliProcess {
  /** Events printed so far. */
  events(): any[];
  /** Resolves with the first event (from `from` on) that `match` accepts; fails after `ms`. */
  waitFor(match: (event: any) => boolean, ms?: number, from?: number): Promise<any>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | string>;
}

/** Short debounce and poll for tests; `extra` options come last, so they win (commander keeps the last value). */
export function spawnWatch(dir: string, env: Record<string, string>, extra: string[] = [], options: { built?: string } = {}): WatchProcess {
  const proc = spawnCli(['watch', dir, '--json', '--debounce', '100', '--poll', '0.5', ...extra], env, options);
  const events = () =>
    proc
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  const waitFor = async (match: (event: any) => boolean, ms = EVENT_WAIT_MS, from = 0) => {
    const until = Date.now() + ms;
    for (;;) {
      const found = events().slice(from).find(match);
      if (found) return found;
      if (proc.child.exitCode !== null || proc.child.signalCode !== null || Date.now() > until) {
        throw new Error(`no such event within ${ms} ms; events: ${JSON.stringify(events())}\nstderr: ${proc.stderr()}`);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return {
    ...proc,
    events,
    waitFor,
    async stop() {
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGTERM');
      return proc.exited;
    },
  };
}

/** Polls `check` until it returns without throwing, or rethrows its last failure after `ms`. */
export async function eventually<T>(check: () => Promise<T>, ms = EVENT_WAIT_MS): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Writes `file` of the workspace again as it is (a file event, no change) and waits for the
 * daemon to finish a cycle after it: one more chance for it to commit, pull or push what it must
 * not, waited for instead of sleeping through polls (which an open event stream stops anyway).
 */
export async function cycleAfterTouch(dir: string, file: string, ms = EVENT_WAIT_MS): Promise<void> {
  const from = (await readDaemonStatus(dir))?.cycles ?? 0;
  await writeFile(join(dir, file), await readFile(join(dir, file)));
  await eventually(async () => {
    const cycles = (await readDaemonStatus(dir))?.cycles ?? 0;
    if (cycles <= from) throw new Error(`no cycle of the daemon in ${dir} within ${ms} ms of writing ${file}`);
  }, ms);
}

/** Stops the daemon; throws unless it exits 0. */
export async function expectExitOk(watch: WatchProcess): Promise<void> {
  const code = await watch.stop();
  if (code !== 0) throw new Error(`docsync watch exited with ${code}; stderr: ${watch.stderr()}`);
}

// `docsync watch --json` as a child process for the bench, as test/daemon/watch-process.ts does
// for the tests (which imports vitest, so cannot be loaded by `npm run bench`): run from source
// with tsx, the way test/cli/run-cli.ts spawnCli() runs the CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

export interface DaemonEventLine {
  type: string;
  at: string;
  [key: string]: unknown;
}

export interface DaemonProcess {
  child: ChildProcess;
  events(): DaemonEventLine[];
  /** The first event from index `from` on that `match` accepts; fails after `ms` or when the child exits. */
  waitFor(match: (event: DaemonEventLine) => boolean, ms?: number, from?: number): Promise<DaemonEventLine>;
  /** SIGTERM, then the exit code (or the signal's name). */
  stop(): Promise<number | string>;
  stderr(): string;
}

export function spawnDaemon(dir: string, env: Record<string, string>, args: string[] = []): DaemonProcess {
  const base = { ...process.env };
  for (const key of Object.keys(base)) if (key.startsWith('DOCSYNC_')) delete base[key];
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'watch', dir, '--json', ...args], {
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? -1)));
  const events = () =>
    out.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as DaemonEventLine);
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    events,
    stderr: () => err,
    async waitFor(match, ms = 30_000, from = 0) {
      const until = Date.now() + ms;
      for (;;) {
        const found = events().slice(from).find(match);
        if (found) return found;
        if (!alive() || Date.now() > until) throw new Error(`no such daemon event within ${ms} ms; events: ${out}\nstderr: ${err}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    async stop() {
      if (alive()) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Resident and peak resident memory of a process, in bytes, from /proc (Linux). */
export function residentMemory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
